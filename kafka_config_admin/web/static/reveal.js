// "show" beside a password field whose key the page cannot know in advance ("Set another
// key"): the value is typed hidden, and shown only on the user's own request. The toggle is
// hidden until this script runs, so a page without scripts does not offer what it cannot do.
document.addEventListener("DOMContentLoaded", () => {
  for (const toggle of document.querySelectorAll("input[data-reveals]")) {
    const field = document.getElementById(toggle.dataset.reveals);
    if (field === null) continue;
    toggle.closest("label").hidden = false;
    toggle.addEventListener("change", () => {
      field.type = toggle.checked ? "text" : "password";
    });
  }
});
