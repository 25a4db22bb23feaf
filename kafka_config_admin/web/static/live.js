// The live page: the server's event stream (text/event-stream) read with EventSource, each
// change added as a table row at the top. Text only (textContent): a value is never HTML.
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("live-status");
  const rows = document.getElementById("live-changes");
  if (status === null || rows === null) return;
  const source = new EventSource(status.dataset.events);
  const shown = (value, origin) => (origin === null ? "(absent)" : value === null ? "-" : value);
  const cell = (row, text) => {
    const td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
  };
  const add = (change, kind) => {
    const row = document.createElement("tr");
    row.className = kind;
    cell(row, change.detected_time.slice(0, 19).replace("T", " "));
    const name = change.resource_name === null ? "" : ` ${change.resource_name}`;
    cell(row, change.resource_type === null ? "(cluster)" : `${change.resource_type.toLowerCase()}${name}`);
    cell(row, change.key === null ? "" : change.key);
    cell(row, change.change);
    if (kind === "problem") {
      cell(row, change.error);
      cell(row, change.error_message);
    } else {
      cell(row, shown(change.before_value, change.before_source));
      cell(row, shown(change.after_value, change.after_source));
    }
    rows.insertBefore(row, rows.firstChild);
  };
  source.addEventListener("ready", (event) => {
    const ready = JSON.parse(event.data);
    status.textContent = `Following ${ready.resources} resources, each change shown within ${ready.interval} s.`;
    status.dataset.ready = "yes";
  });
  source.addEventListener("change", (event) => add(JSON.parse(event.data), "change"));
  source.addEventListener("problem", (event) => add(JSON.parse(event.data), "problem"));
  source.onerror = () => {
    if (source.readyState !== EventSource.OPEN) status.textContent = "Connection lost: reconnecting…";
  };
});
