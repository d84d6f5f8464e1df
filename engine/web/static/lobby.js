// The lobby: an edition, house rules checked live by the server, seats (people or bots), then the links.
"use strict";
const $ = (id) => document.getElementById(id);
let bots = [];

function seatRow(kind, value) {
  const row = document.createElement("div");
  row.className = "seat";
  const select = document.createElement("select");
  for (const option of ["person", ...bots]) {
    const o = document.createElement("option");
    o.value = option; o.textContent = option === "person" ? "a person" : "bot: " + option;
    select.appendChild(o);
  }
  select.value = kind;
  const name = document.createElement("input");
  name.placeholder = "name"; name.maxLength = 40; name.value = value || "";
  const sync = () => { name.hidden = select.value !== "person"; };
  select.addEventListener("change", sync); sync();
  const remove = document.createElement("button");
  remove.textContent = "remove"; remove.addEventListener("click", () => row.remove());
  row.append(select, name, remove);
  $("seats").appendChild(row);
}

function chosen() {
  return {
    ruleset: $("edition").value,
    variants: [...document.querySelectorAll("#variants input:checked")].map((box) => box.value),
  };
}

async function check() {
  const response = await fetch("/api/check", {method: "POST", body: JSON.stringify(chosen())});
  const result = await response.json();
  $("problems").textContent = result.ok ? "" : result.problems.join("\n");
  $("create").disabled = !result.ok;
  if (result.ok && !$("cash").dataset.touched) $("cash").value = result.starting_cash;
  $("minutes-row").hidden = !(result.ok && result.minutes);
  if (result.ok && result.minutes && !$("minutes").dataset.touched) $("minutes").value = result.minutes;
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  const response = await fetch("/api/editions", {method: "POST", body: await file.text()});
  const result = await response.json();
  if (!result.ok) { $("problems").textContent = result.problems.join("\n"); return; }
  const o = document.createElement("option");
  o.value = result.id; o.textContent = "uploaded: " + result.name;
  $("edition").appendChild(o);
  $("edition").value = result.id;
  check();
}

async function create() {
  const seats = [...document.querySelectorAll("#seats .seat")].map((row) => {
    const [select, name] = row.querySelectorAll("select, input");
    return select.value === "person" ? {name: name.value || "player"} : {bot: select.value};
  });
  const cash = $("cash").value === "" ? null : Number($("cash").value);
  const options = {starting_cash: cash, clock: Number($("clock").value)};
  if (!$("minutes-row").hidden && $("minutes").value !== "") options.minutes = Number($("minutes").value);
  const response = await fetch("/api/tables", {method: "POST", body: JSON.stringify({...chosen(), seats, ...options})});
  const result = await response.json();
  const links = $("links");
  links.replaceChildren();
  if (!result.ok) { $("problems").textContent = result.problems.join("\n"); return; }
  for (const seat of result.seats) {
    const item = document.createElement("li");
    if (seat.link) {
      const a = document.createElement("a");
      a.href = seat.link; a.textContent = seat.name + ": " + location.origin + seat.link;
      item.appendChild(a);
    } else { item.textContent = seat.name + " (bot)"; }
    links.appendChild(item);
  }
  const watch = document.createElement("li");
  const a = document.createElement("a");
  a.href = result.watch; a.textContent = "spectators: " + location.origin + result.watch;
  watch.appendChild(a); links.appendChild(watch);
}

async function start() {
  const listed = await (await fetch("/api/rulesets")).json();
  bots = listed.bots;
  for (const edition of listed.editions) {
    const o = document.createElement("option");
    o.value = edition.id; o.textContent = edition.id + ": " + edition.description;
    $("edition").appendChild(o);
  }
  for (const variant of listed.variants) {
    const label = document.createElement("label");
    label.className = "variant";
    const box = document.createElement("input");
    box.type = "checkbox"; box.value = variant.id; box.addEventListener("change", check);
    const text = document.createElement("small");
    text.textContent = variant.description;
    label.append(box, " " + variant.id, text);
    $("variants").appendChild(label);
  }
  $("edition").addEventListener("change", check);
  $("upload").addEventListener("change", upload);
  $("cash").addEventListener("input", () => { $("cash").dataset.touched = "yes"; });
  $("minutes").addEventListener("input", () => { $("minutes").dataset.touched = "yes"; });
  seatRow("person", "You"); seatRow(bots[1] || bots[0]); seatRow(bots[1] || bots[0]);
  $("add-seat").addEventListener("click", () => seatRow(bots[1] || bots[0]));
  $("create").addEventListener("click", create);
  check();
}
start();
