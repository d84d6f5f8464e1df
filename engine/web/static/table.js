// The table: one seat's page (its secret token in the link's fragment) or a spectator's (#watch), speaking the
// agents protocol over a WebSocket: the server sends hello, events, decision, ack and end; the page answers.
"use strict";
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = decodeURIComponent(location.hash.slice(1)) || "watch";
let players = [];
let board = [];
let current = null;  // the decision waiting for this seat

function say(line) {
  const div = document.createElement("div");
  div.textContent = line;
  $("narration").appendChild(div);
  $("narration").scrollTop = $("narration").scrollHeight;
}

function who(seat) { return typeof seat === "number" ? (players[seat] || "seat " + seat) : String(seat); }
function space(index) { return board[index] ? board[index].name : "space " + index; }

function tell(event) {
  switch (event.type) {
    case "turn": say("Turn " + event.turn + ": " + who(event.seat)); break;
    case "roll": say(who(event.seat) + " rolls " + event.dice.join(" and ")); break;
    case "move": say(who(event.seat) + " moves to " + space(event.to)); break;
    case "buy": say(who(event.seat) + " buys " + space(event.space) + " for " + event.price); break;
    case "payment": say(who(event.from) + " pays " + event.amount + " to " + who(event.to) + " (" + event.reason + ")"); break;
    case "build": say(who(event.seat) + " builds on " + space(event.space)); break;
    case "card": say(who(event.seat) + " draws: " + (event.text || event.deck)); break;
    case "trade": say(who(event.proposer) + " offers a trade to " + who(event.partner) + (event.accepted ? ": accepted" : ": declined")); break;
    case "bankrupt": say(who(event.seat) + " is bankrupt"); break;
    case "game_end": say("The game is over: " + event.end); break;
    default: break;
  }
}

function showState(state) {
  if (!state) return;
  const rows = players.map((name, seat) =>
    "<tr><td>" + escapeHtml(name) + "</td><td>" + state.cash[seat] + "</td><td>" + escapeHtml(space(state.position[seat])) +
    (state.jail_turns[seat] >= 0 ? " (in jail)" : "") + (state.bankrupt[seat] ? " (bankrupt)" : "") + "</td></tr>");
  $("players").innerHTML = "<tr><th>player</th><th>cash</th><th>where</th></tr>" + rows.join("");
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function ask(decision, socket) {
  current = decision;
  $("text").textContent = decision.text;
  $("refused").textContent = "";
  const answers = $("answers");
  answers.replaceChildren();
  const numbered = decision.text.split("\n").map((line) => line.match(/^\s+(\d+)\. (.*)$/)).filter(Boolean);
  for (const [, number, words] of numbered) {
    const button = document.createElement("button");
    button.textContent = number + ". " + words;
    button.addEventListener("click", () => socket.send(JSON.stringify({type: "answer", id: decision.id, choice: Number(number)})));
    answers.appendChild(button);
  }
  $("bid").hidden = decision.kind !== "bid";
  if (decision.kind === "bid") {
    $("bid-amount").min = decision.legal.min; $("bid-amount").max = decision.legal.max;
    $("bid-amount").value = decision.legal.min;
  }
}

function connect() {
  const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + tableId);
  socket.addEventListener("open", () => socket.send(JSON.stringify({type: "join", token})));
  $("bid-send").addEventListener("click", () => {
    if (current) socket.send(JSON.stringify({type: "answer", id: current.id, answer: Number($("bid-amount").value)}));
  });
  socket.addEventListener("message", (message) => {
    const data = JSON.parse(message.data);
    if (data.type === "hello") {
      if (!players.length) players = data.players;  // the table's names (joined) tell two bots apart
      board = data.ruleset.resolved.board;
      $("title").textContent = data.ruleset.name + ": you are " + players[data.seat];
    } else if (data.type === "joined") {
      players = data.players;
      if (data.board) { board = data.board; $("title").textContent = "Watching the table"; $("decision").hidden = true; }
    } else if (data.type === "events") {
      data.events.forEach(tell);
    } else if (data.type === "decision") {
      data.events.forEach(tell); showState(data.state); ask(data, socket);
    } else if (data.type === "ack") {
      if (!data.ok) $("refused").textContent = data.reason;
      else { $("answers").replaceChildren(); $("bid").hidden = true; $("text").textContent = "Waiting for the others..."; current = null; }
    } else if (data.type === "end") {
      $("text").textContent = "The game is over."; say("Winner: " + (data.result.winner === null ? "nobody" : who(data.result.winner)));
    } else if (data.type === "error") {
      $("text").textContent = data.reason;
    }
  });
  socket.addEventListener("close", () => say("(disconnected)"));
}

$("board-image").src = "/api/tables/" + tableId + "/board.svg";
connect();
