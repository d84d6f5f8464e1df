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
    case "roll": say(who(event.seat) + " rolls " + event.dice.join(" and ")); showDice(event); break;
    case "move": say(who(event.seat) + " moves to " + space(event.to)); break;
    case "buy": say(who(event.seat) + " buys " + space(event.space) + " for " + event.price); break;
    case "payment": say(who(event.from) + " pays " + event.amount + " to " + who(event.to) + " (" + event.reason + ")"); break;
    case "build": say(who(event.seat) + " builds on " + space(event.space)); break;
    case "card": say(who(event.seat) + " draws: " + (event.text || event.deck)); showCard(event); break;
    case "trade": say(who(event.proposer) + " offers a trade to " + who(event.partner) + (event.accepted ? ": accepted" : ": declined")); break;
    case "bankrupt": say(who(event.seat) + " is bankrupt"); break;
    case "game_end": say("The game is over: " + event.end); break;
    default: break;
  }
}

// The dice panel: the last roll's faces (a die of 1 to 6 drawn as its face, any other value, such as the speed
// die's, written out) and who threw them.
const FACES = ["\u2680", "\u2681", "\u2682", "\u2683", "\u2684", "\u2685"];

function showDice(event) {
  const faces = [...event.dice, ...(event.extra || [])].map((value) => {
    const die = document.createElement("span");
    const face = Number.isInteger(value) && value >= 1 && value <= 6 ? FACES[value - 1] : null;
    die.className = face ? "die" : "die other";
    die.textContent = face || String(value);
    die.title = String(value);
    return die;
  });
  $("dice").replaceChildren(...faces);
  const total = event.dice.reduce((sum, value) => sum + (Number.isInteger(value) ? value : 0), 0);
  const doubles = event.dice.length > 1 && event.dice.every((value) => value === event.dice[0]);
  $("dice-who").textContent = who(event.seat) + " threw " + total + (doubles ? ": doubles" : "");
}

function showCard(event) {
  const deck = decks[event.deck];
  $("last-card").hidden = false;
  $("last-card-deck").textContent = who(event.seat) + " drew " + (deck ? deck.name : event.deck);
  $("last-card-text").textContent = event.text || "";
}

// The clocks: seconds left for the decision asked of this seat, and for the game (the time-limit rules), as the
// server sent them; counted down here between its lines (the server keeps the real clock and answers for a
// seat whose time runs out).
let clocks = {decision: null, game: null};
let clocksAt = 0;

function setClocks(given) {
  if (!given) return;
  clocks = given; clocksAt = performance.now();
  tick();
}

function shown(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

function tick() {
  const gone = (performance.now() - clocksAt) / 1000;
  const decision = $("decision-clock"), game = $("game-clock");
  decision.hidden = clocks.decision === null || current === null;
  if (!decision.hidden) {
    decision.textContent = shown(clocks.decision - gone);
    decision.classList.toggle("late", clocks.decision - gone < 10);
  }
  game.hidden = clocks.game === null;
  if (!game.hidden) game.textContent = "time left " + shown(clocks.game - gone);
}
setInterval(tick, 500);

const COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const SVG = "http://www.w3.org/2000/svg";
let squares = [];  // each space's square (its rect) in the inline board
let marks = null;  // the layer drawn over the board: owners, buildings, mortgages, tokens

async function loadBoard() {
  const text = await (await fetch("/api/tables/" + tableId + "/board.svg")).text();
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  const svg = document.importNode(parsed, true);
  svg.setAttribute("width", "100%"); svg.removeAttribute("height");
  $("board").replaceChildren(svg);
  squares = [];
  for (const group of svg.querySelectorAll("g.space")) {
    squares[Number(group.dataset.index)] = group.querySelector("rect.square");
  }
  marks = document.createElementNS(SVG, "g");
  marks.setAttribute("class", "marks");
  svg.appendChild(marks);
}

function shape(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  marks.appendChild(element);
  return element;
}

function drawBoard(state) {
  if (!marks) return;
  marks.replaceChildren();
  state.owner.forEach((owner, index) => {
    const square = squares[index];
    if (!square || owner < 0) return;
    const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(square.getAttribute(k)));
    shape("rect", {x: x + 2, y: y + 2, width: w - 4, height: h - 4, fill: "none", stroke: COLOURS[owner % 8],
                   "stroke-width": 4, "stroke-dasharray": state.mortgaged[index] ? "6 4" : "none",
                   class: "owner"}).appendChild(document.createElementNS(SVG, "title")).textContent =
      who(owner) + (state.mortgaged[index] ? " (mortgaged)" : "");
    const level = state.buildings[index];
    for (let i = 0; i < level && i < 5; i++) {
      const hotel = level === 5;
      shape("rect", {x: x + 6 + i * 11, y: y + h / 2 - 5, width: hotel ? 20 : 9, height: 9,
                     fill: hotel ? "#c0392b" : "#27ae60", class: hotel ? "hotel" : "house"});
      if (hotel) break;
    }
  });
  const here = {};
  state.position.forEach((position, seat) => {
    if (state.bankrupt[seat]) return;
    const square = squares[position];
    if (!square) return;
    const slot = here[position] = (here[position] || 0) + 1;
    const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(square.getAttribute(k)));
    shape("circle", {cx: x + 10 + ((slot - 1) % 4) * 14, cy: y + h - 12 - Math.floor((slot - 1) / 4) * 14, r: 6,
                     fill: COLOURS[seat % 8], stroke: "#000", class: "token"}).appendChild(
      document.createElementNS(SVG, "title")).textContent = who(seat);
  });
}

let houseCost = [];  // by space: what a building on it costs (from the resolved ruleset)
const worths = [];   // [turn, worth of each seat] at each position seen: the chart at the end

function worthOf(state, seat) {
  let worth = state.cash[seat];
  state.owner.forEach((owner, index) => {
    if (owner === seat) worth += (board[index].price || 0) + state.buildings[index] * (houseCost[index] || 0);
  });
  return worth;
}

function chart(result) {
  const section = document.createElement("section");
  const title = document.createElement("h2");
  title.textContent = "Standings";
  const list = document.createElement("ol");
  for (const standing of result.standings) {
    const item = document.createElement("li");
    item.textContent = who(standing.seat) + ": worth " + standing.net_worth + " (cash " + standing.cash + ")" +
      (standing.bankrupt ? ", bankrupt" : "");
    list.appendChild(item);
  }
  section.append(title, list);
  if (worths.length > 1) {
    const width = 320, height = 160;
    const most = Math.max(1, ...worths.flatMap(([, values]) => values));
    const last = worths[worths.length - 1][0] || 1;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 " + width + " " + height); svg.setAttribute("class", "worth-chart");
    players.forEach((_, seat) => {
      const line = document.createElementNS(SVG, "polyline");
      line.setAttribute("points", worths.map(([turn, values]) =>
        (turn / last * (width - 4) + 2).toFixed(1) + "," + (height - 2 - values[seat] / most * (height - 4)).toFixed(1)).join(" "));
      line.setAttribute("fill", "none"); line.setAttribute("stroke", COLOURS[seat % 8]); line.setAttribute("stroke-width", "2");
      svg.appendChild(line);
    });
    const caption = document.createElement("p");
    caption.textContent = "Net worth by turn (cash, printed prices, buildings at cost)";
    section.append(svg, caption);
  }
  $("side").prepend(section);
}

function showState(state) {
  if (!state) return;
  if (board.length && board[0].name !== undefined) {
    const values = players.map((_, seat) => worthOf(state, seat));
    const previous = worths[worths.length - 1];
    if (!previous || previous[0] !== state.turn) worths.push([state.turn, values]);
    else previous[1] = values;
  }
  drawBoard(state);
  const table = $("players");
  table.replaceChildren();
  const head = table.insertRow();
  for (const title of ["player", "cash", "where"]) {
    const th = document.createElement("th"); th.textContent = title; head.appendChild(th);
  }
  players.forEach((name, seat) => {
    const row = table.insertRow();
    const dot = document.createElement("span");
    dot.textContent = "\u25CF "; dot.style.color = COLOURS[seat % 8];  // the token's colour (CSSOM: CSP allows it)
    const cell = row.insertCell(); cell.append(dot, name);
    row.insertCell().textContent = state.cash[seat];
    row.insertCell().textContent = space(state.position[seat]) + (state.jail_turns[seat] >= 0 ? " (in jail)" : "") +
      (state.bankrupt[seat] ? " (bankrupt)" : "");
  });
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

// The trade builder: the decision's templates (legal.trades) become checkboxes; each change is checked by the
// server with the game's own rules (a "check" line), and the reason shown before the offer is sent.
let offer = null;

function tradeBuilder(decision, socket) {
  const templates = (decision.legal && decision.legal.trades) || [];
  $("trade").hidden = templates.length === 0;
  if (!templates.length) return;
  const partner = $("trade-partner");
  partner.replaceChildren(...templates.map((t, i) => {
    const o = document.createElement("option"); o.value = i; o.textContent = who(t.partner); return o;
  }));
  const boxes = (where, lots) => {
    $(where).replaceChildren(...lots.map((lot) => {
      const label = document.createElement("label");
      const box = document.createElement("input"); box.type = "checkbox"; box.value = lot;
      box.addEventListener("change", () => check(decision, socket));
      label.append(box, " " + space(lot) + " "); return label;
    }));
  };
  const cards = (where, held) => {
    $(where).replaceChildren(...held.map((card) => {
      const label = document.createElement("label");
      const box = document.createElement("input"); box.type = "checkbox"; box.value = JSON.stringify(card);
      box.addEventListener("change", () => check(decision, socket));
      label.append(box, " " + cardName(card) + " "); return label;
    }));
  };
  const choose = () => {
    const t = templates[Number(partner.value)];
    boxes("trade-give", t.give_spaces); boxes("trade-get", t.get_spaces);
    cards("trade-give-cards", t.give_cards); cards("trade-get-cards", t.get_cards);
    $("trade-give-cash").max = t.give_cash_max; $("trade-get-cash").max = t.get_cash_max;
    check(decision, socket);
  };
  partner.onchange = choose;
  $("trade-give-cash").oninput = () => check(decision, socket);
  $("trade-get-cash").oninput = () => check(decision, socket);
  $("trade-send").onclick = () => { if (offer) socket.send(JSON.stringify({type: "answer", id: decision.id, answer: offer})); };
  choose();
}

function check(decision, socket) {
  const t = decision.legal.trades[Number($("trade-partner").value)];
  const ticked = (where) => [...document.querySelectorAll("#" + where + " input:checked")].map((b) => Number(b.value));
  const held = (where) => [...document.querySelectorAll("#" + where + " input:checked")].map((b) => JSON.parse(b.value));
  offer = {action: "trade", proposer: decision.seat, partner: t.partner, give_spaces: ticked("trade-give"),
           give_cash: Number($("trade-give-cash").value) || 0, give_cards: held("trade-give-cards"),
           get_spaces: ticked("trade-get"), get_cash: Number($("trade-get-cash").value) || 0,
           get_cards: held("trade-get-cards")};
  socket.send(JSON.stringify({type: "check", answer: offer}));
}

let decks = {};  // the resolved ruleset's decks: a kept card's name in the trade builder

function cardName(card) {
  const [deck, index] = card;
  const found = decks[deck] && decks[deck].cards[index];
  const text = found ? found.text : "card " + index;
  return (decks[deck] ? decks[deck].name : deck) + ": " + (text.length > 40 ? text.slice(0, 38) + "..." : text);
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
      const costs = {};
      for (const [key, group] of Object.entries(data.ruleset.resolved.groups)) costs[key] = group.house_cost || 0;
      houseCost = board.map((square) => costs[square.group] || 0);
      decks = data.ruleset.resolved.decks || {};
      $("title").textContent = data.ruleset.name + ": you are " + players[data.seat];
    } else if (data.type === "joined") {
      players = data.players;
      if (data.board) { board = data.board; $("title").textContent = "Watching the table"; $("decision").hidden = true; }
    } else if (data.type === "events") {
      data.events.forEach(tell); showState(data.state); setClocks(data.clocks);
    } else if (data.type === "decision") {
      data.events.forEach(tell); showState(data.state); ask(data, socket); tradeBuilder(data, socket);
      setClocks(data.clocks);
    } else if (data.type === "timeout") {
      if (data.id !== null) {
        $("answers").replaceChildren(); $("bid").hidden = true; $("trade").hidden = true; current = null;
        $("text").textContent = "Your time ran out: the table answered for you (" + data.kind + ": the answer that risks nothing).";
        tick();
      }
      say(who(data.seat) + "'s time ran out (" + data.kind + ")");
    } else if (data.type === "checked") {
      $("trade-check").textContent = data.ok ? "The rules allow this offer." : data.reason;
      $("trade-send").disabled = !data.ok;
    } else if (data.type === "ack") {
      if (!data.ok) $("refused").textContent = data.reason;
      else {
        $("answers").replaceChildren(); $("bid").hidden = true; $("trade").hidden = true;
        $("text").textContent = "Waiting for the others..."; current = null; tick();
      }
    } else if (data.type === "end") {
      $("text").textContent = "The game is over."; say("Winner: " + (data.result.winner === null ? "nobody" : who(data.result.winner)));
      if (data.result.standings) chart(data.result);
    } else if (data.type === "error") {
      $("text").textContent = data.reason;
    }
  });
  socket.addEventListener("close", () => say("(disconnected)"));
}

loadBoard().then(connect);
