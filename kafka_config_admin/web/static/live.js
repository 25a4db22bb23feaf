// The live page: the server's event stream (text/event-stream) read with EventSource, each
// change added as a table row at the top, and what each read of the cluster cost in the cost
// line. Text only (textContent): a value is never HTML.
document.addEventListener("DOMContentLoaded", () => {
  const status = document.getElementById("live-status");
  const rows = document.getElementById("live-changes");
  const cost = document.getElementById("live-cost");
  if (status === null || rows === null || cost === null) return;
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
  // Within one interval; with a bound per read, within the reads a whole turn takes.
  let following = null;
  const followed = (resources) => {
    if (following === null) return;
    const reads = following.max_per_poll === null ? 1 : Math.max(1, Math.ceil(resources / following.max_per_poll));
    const bound = following.max_per_poll === null ? "" : `, at most ${following.max_per_poll} read each time, in turn`;
    status.textContent = `Following ${resources} resources${bound}, each change shown within ${+(reads * following.interval).toFixed(2)} s.`;
  };
  source.addEventListener("ready", (event) => {
    following = JSON.parse(event.data);
    followed(following.resources);
    status.dataset.ready = "yes";
  });
  // Totals since the page opened, beside the last read's own figures, and the rate a minute
  // at the last read's pace (from the second read on: the baseline reads everything).
  const total = { reads: 0, bytes: 0, last: null };
  source.addEventListener("cost", (event) => {
    const read = JSON.parse(event.data);
    const now = Date.now();
    const pace = total.last === null ? "" :
      ` At the last read's pace: ${Math.round((read.bytes_received * 60000) / Math.max(now - total.last, 1)).toLocaleString("en")} bytes a minute.`;
    total.reads += 1;
    total.bytes += read.bytes_received;
    total.last = now;
    cost.textContent =
      `Last read: ${read.resources_read} of ${read.resources} resources, ${read.requests} requests, ` +
      `${read.bytes_received.toLocaleString("en")} bytes received, ${read.seconds.toFixed(2)} s. ` +
      `Since this page opened: ${total.reads} reads, ${total.bytes.toLocaleString("en")} bytes.${pace}`;
    cost.dataset.reads = String(total.reads);
    followed(read.resources);
  });
  source.addEventListener("change", (event) => add(JSON.parse(event.data), "change"));
  source.addEventListener("problem", (event) => add(JSON.parse(event.data), "problem"));
  source.onerror = () => {
    if (source.readyState !== EventSource.OPEN) status.textContent = "Connection lost: reconnecting…";
  };
});
