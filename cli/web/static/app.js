// The pages' script: fill the form from the address, run the job (server-sent
// events from /run/<page>), show progress, errors next to their field, and the answer.
"use strict";
const PAGE = document.body.dataset.page;
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const CARD = Object.fromEntries(window.CARDS.map((c) => [c.id, c.label]));
let source = null;

function suitClass(id) {
  return id[0] === "T" ? "t" : ({H: "h", D: "d", S: "s", C: "c"}[id[0]]);
}
function chip(id, extra = "") {
  return `<span class="chip ${suitClass(id)} ${extra}" data-card="${id}">${esc(CARD[id] || id)}</span>`;
}
function thirds(t) {
  if (t === null || t === undefined) return "?";
  return `${Math.floor(t / 3)}${["", "⅓", "⅔"][t % 3]}`;
}

// ---------------------------------------------------------------- running a job
function clearErrors() {
  document.querySelectorAll(".err").forEach((e) => { e.textContent = ""; });
  document.querySelectorAll(".bad").forEach((e) => e.classList.remove("bad"));
}
function showError(field, message) {
  const box = $("err-" + field) || $("status");
  box.textContent = message;
  const input = $(field);
  if (input) input.classList.add("bad");
}
function stop(status) {
  if (source) { source.close(); source = null; }
  $("cancel").disabled = true;
  $("go").disabled = false;
  $("status").textContent = status;
}
function start() {
  clearErrors();
  $("result").innerHTML = "";
  $("go").disabled = true;
  $("cancel").disabled = false;
  $("status").textContent = "starting…";
  source = new EventSource(`/run/${PAGE}${location.search}`);
  source.addEventListener("progress", (e) => { $("status").textContent = progressText(JSON.parse(e.data)); });
  source.addEventListener("error", (e) => {
    if (!e.data) { stop("the connection to the server was lost."); return; }
    const err = JSON.parse(e.data);
    stop("");
    showError(err.field, err.message);
  });
  source.addEventListener("result", (e) => {
    stop("");
    const res = JSON.parse(e.data);
    RENDER[PAGE](res);
    if (res.warnings && res.warnings.length) {
      $("result").insertAdjacentHTML("afterbegin", `<p class="warn">${res.warnings.map(esc).join("<br>")}</p>`);
    }
  });
}
function progressText(p) {
  if (p.phase === "starting") return "starting the engine…";
  if (PAGE === "advise") {
    const worlds = p.worlds_total ? `${p.worlds} of ${p.worlds_total} worlds` : `${p.worlds} worlds`;
    // the leading option's standard errors shrink as the exact worlds come in
    let lead = "";
    if (p.leader && p.net_se !== null) {
      lead = ` · ${p.leader} ±${p.net_se.toFixed(1)} game points` +
        (p.points_se !== null ? `, ±${p.points_se.toFixed(1)} card points` : "");
    } else if (p.leader) {
      lead = ` · ${p.leader} leads (no SE yet)`;
    }
    const limit = p.time_limit ? ` / ${p.time_limit} s` : " s";
    return `${worlds} · ${p.exact_solves} exact solves${lead} · ${p.seconds.toFixed(1)}${limit}`;
  }
  if (PAGE === "deal") return `solving: ${p.done} of ${p.total} rows done`;
  if (PAGE === "review") return `reviewing: ${p.done} of ${p.total} cards`;
  return "working…";
}

// ---------------------------------------------------------------- downloads
function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type}));
  a.download = name;
  a.click();
}
function downloads(name, doc, csv) {
  const box = document.createElement("div");
  box.className = "downloads";
  box.innerHTML = `Download: <button type="button" class="link" id="dl-json">${name}.json</button> ` +
    `<button type="button" class="link" id="dl-csv">${name}.csv</button>`;
  box.querySelector("#dl-json").onclick = () => download(`${name}.json`, JSON.stringify(doc, null, 2), "application/json");
  box.querySelector("#dl-csv").onclick = () => download(`${name}.csv`, csv, "text/csv");
  return box;
}

// ---------------------------------------------------------------- advice
function renderAdvice(res) {
  const d = res.json, m = d.meta;
  const hand = d.hand.split(" ").map((c) => chip(c)).join("");
  let head = `<h2>Advice for ${esc(d.seat)}${d.demo ? " (demo hand)" : ""}</h2><div class="hand">${hand}</div>` +
    `<p class="meta">rules: ${esc(d.rules)} · seed ${m.seed} · ${m.worlds} worlds, ${m.exact_solves} exact solves in ${m.seconds.toFixed(1)} s` +
    `${m.interrupted ? " (interrupted: the answer so far)" : ""}</p>`;
  const rec = res.text.find((l) => l.startsWith("Recommendation")) || "";
  $("result").innerHTML = head + (rec ? `<p class="rec" id="recommendation">${esc(rec)}</p>` : "") +
    `<pre id="advice">${res.text.map(esc).join("\n")}</pre>`;
  $("result").append(downloads("advice", d, res.csv));
}

// ---------------------------------------------------------------- deal
function renderDeal(res) {
  const d = res.json;
  const rows = d.rows.map((r) => `<tr><td>${r.declarer}</td><td>${esc(r.contract)}</td><td>${esc(r.talon_group || "-")}</td>` +
    `<td>${(r.discard || "").split(" ").filter(Boolean).map((c) => chip(c)).join("") || "-"}</td>` +
    `<td class="num">${thirds(r.declarer_thirds)}${r.complete ? "" : " *"}</td><td class="num">${r.declarer_points ?? "?"}</td>` +
    `<td>${r.made === null ? "?" : r.made ? "yes" : "no"}${r.valat ? " (Valat)" : ""}</td>` +
    `<td class="num">${r.net_declarer === null || r.net_declarer === undefined ? "" : (r.net_declarer > 0 ? "+" : "") + r.net_declarer}</td>` +
    `<td>${r.same_play_as ? "as " + esc(r.same_play_as) : r.options}</td></tr>`).join("");
  let out = `<h2>Double-dummy table</h2><p class="meta">${esc(d.deal)}<br>rules: ${esc(d.rules)} · F leads` +
    `${d.complete ? "" : " · * node limit reached: a lower bound"}</p>` +
    `<table id="ddtable"><thead><tr><th>Decl</th><th>Contract</th><th>Talon</th><th>Discard</th><th>Points</th><th>P</th><th>Made</th><th>Net</th><th>Exchanges</th></tr></thead><tbody>${rows}</tbody></table>`;
  for (const r of d.rows) {
    if (!r.lead_thirds || r.same_play_as) continue;
    const vals = r.lead_thirds, leads = Object.keys(vals);
    const declLeads = r.declarer === "F";
    leads.sort((a, b) => declLeads ? vals[b] - vals[a] : vals[a] - vals[b]);
    const best = vals[leads[0]];
    out += `<h3>Opening lead of F — ${r.declarer} declares ${esc(r.contract)}${r.talon_group ? `, takes ${esc(r.talon_group)}` : ""}</h3>` +
      `<div class="leads">${leads.map((c) => `<span class="lead${vals[c] === best ? " best" : ""}">${chip(c)}<b>${thirds(vals[c])}</b></span>`).join("")}</div>` +
      `<p class="hint">declarer's points after each lead; highlighted: best for F (${declLeads ? "highest" : "lowest"})</p>`;
  }
  $("result").innerHTML = out;
  $("result").append(downloads("deal", d, res.csv));
}

// ---------------------------------------------------------------- review
let review = null, step = 0;
function renderReview(res) {
  review = res;
  step = 0;
  const d = res.json;
  const players = d.players.map((p) => `<tr><td>${p.seat}</td><td>${p.role}</td><td class="num">${p.mistakes}</td><td class="num">${p.loss}</td></tr>`).join("");
  const ex = d.exchange;
  $("result").innerHTML = `<h2>Review: ${esc(d.record.id || "record")}</h2>` +
    `<p class="meta">${esc(d.record.declarer)} declares ${esc(d.record.contract)}, takes ${esc(d.record.talon_pick || "-")}, discards ${esc(d.record.discard || "-")} · ` +
    `start ${d.start_points}, final ${d.final_points} card points (wins at ${thirds(d.win_thirds)})` +
    `${ex ? ` · exchange: best ${esc(ex.best_group)} discarding ${esc(ex.best_discard)}, loss ${thirds(ex.loss_thirds)}` : ""}</p>` +
    `<div class="replay"><div class="controls"><button type="button" id="first">« first</button><button type="button" id="prev">◀ back</button>` +
    `<span id="step"></span><button type="button" id="next">forward ▶</button><button type="button" id="last">last »</button></div>` +
    `<div id="table"></div><p id="verdict" class="verdict"></p><div id="curve"></div><div id="playlist" class="playlist"></div></div>` +
    `<table class="small"><thead><tr><th>Seat</th><th>Role</th><th>Mistakes</th><th>Loss</th></tr></thead><tbody>${players}</tbody></table>`;
  const card = (c, i) => `<span class="played${c.loss > 0 ? " lost" : ""}" data-step="${i + 1}" title="trick ${c.trick}: ${c.seat} ${c.card}${c.loss ? ", loses " + c.loss : ""}">${chip(c.card)}${c.loss > 0 ? `<b>−${c.loss}</b>` : ""}</span>`;
  $("playlist").innerHTML = d.cards.map(card).join("");
  $("playlist").onclick = (e) => { const s = e.target.closest("[data-step]"); if (s) show(+s.dataset.step); };
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(d.cards.length);
  $("result").append(downloads("review", d, res.csv));
  show(0);
}
function show(k) {
  const d = review.json, cards = d.cards;
  step = Math.max(0, Math.min(cards.length, k));
  const played = new Set(cards.slice(0, step).map((c) => c.card));
  const trickStart = step === 0 ? 0 : Math.floor((step - 1) / 3) * 3;
  const trick = cards.slice(trickStart, step);
  const seats = Object.keys(review.hands);
  $("table").innerHTML = seats.map((s) => `<div class="seat"><span class="who">${s}${s === d.record.declarer ? " (declarer)" : ""}</span>` +
    `${review.hands[s].filter((c) => !played.has(c)).map((c) => chip(c)).join("")}</div>`).join("") +
    `<div class="trick">${step ? `Trick ${cards[step - 1].trick}: ` : "Before the first trick"}${trick.map((c) => `${c.seat} ${chip(c.card, c.loss > 0 ? "lostcard" : "")}`).join(" ")}</div>`;
  $("step").textContent = `card ${step} of ${cards.length}`;
  const c = cards[step - 1];
  $("verdict").innerHTML = !c ? "Step forward to play the first card." :
    `${c.seat} plays ${chip(c.card)}: declarer's card points (discard + tricks, double-dummy) ${thirds(c.before_thirds)} → ${thirds(c.after_thirds)}` +
    (c.loss > 0 ? ` · <span class="loss">loses ${c.loss}</span>; best: ${c.best.map((x) => chip(x)).join("")}` : " · no loss");
  document.querySelectorAll(".played").forEach((e) => e.classList.toggle("now", +e.dataset.step === step));
  $("curve").innerHTML = curve(cards, step, d.win_thirds / 3);
}
function curve(cards, now, win) {
  const W = 720, H = 170, P = 28, n = cards.length;
  const vals = [cards.length ? cards[0].before_thirds / 3 : 0, ...cards.map((c) => c.after_thirds / 3)];
  const lo = Math.min(win, ...vals) - 2, hi = Math.max(win, ...vals) + 2;
  const x = (i) => P + (W - 2 * P) * i / Math.max(1, n), y = (v) => H - P + (2 * P - H) * (v - lo) / (hi - lo);
  const path = vals.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const losses = cards.map((c, i) => c.loss > 0 ? `<circle cx="${x(i + 1)}" cy="${y(c.after_thirds / 3)}" r="4" class="lossdot"><title>${c.seat} ${c.card}: −${c.loss}</title></circle>` : "").join("");
  const ticks = [Math.min(...vals), Math.max(...vals)].map((v) => `<text x="${P - 4}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`).join("");
  return `<svg id="valuecurve" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="declarer's double-dummy points after each card">` +
    `<line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" class="axis"/>${ticks}` +
    `<line x1="${P}" y1="${y(win)}" x2="${W - P}" y2="${y(win)}" class="win"/><text x="${W - P}" y="${y(win) - 4}" text-anchor="end">made at ${thirds(Math.round(win * 3))}</text>` +
    `<line x1="${x(now)}" y1="${P / 2}" x2="${x(now)}" y2="${H - P}" class="now"/>` +
    `<path d="${path}" class="curve"/>${losses}` +
    `<text x="${W / 2}" y="${H - 6}" text-anchor="middle">declarer's card points (discard + tricks, double-dummy) after each card; red: a card that lost points</text></svg>`;
}
document.addEventListener("keydown", (e) => {
  if (!review || e.target.matches("input, textarea, select")) return;
  if (e.key === "ArrowRight") show(step + 1);
  if (e.key === "ArrowLeft") show(step - 1);
});

// ---------------------------------------------------------------- the card picker
// The pack as buttons: a click gives a card to the chosen target (a hand, or the talon)
// or takes it back. The text field is written from the picks, and typing or pasting in
// it redraws them. `picks` keeps the click order, which is the talon's t1 … t6.
const INDEX = Object.fromEntries(window.CARDS.map((c, i) => [c.id, i]));
let picks = new Map(), target = null;  // card id → target; where the next click goes
function buildPicker(field, sizes, write, read) {
  const rows = [window.CARDS.slice(0, 11), window.CARDS.slice(11, 22), window.CARDS.slice(22, 30),
    window.CARDS.slice(30, 38), window.CARDS.slice(38, 46), window.CARDS.slice(46, 54)];
  $("picker").innerHTML = rows.map((row) => `<div class="prow">${row.map((c) =>
    `<button type="button" class="card ${suitClass(c.id)}" data-id="${c.id}" aria-pressed="false">${esc(c.label)}</button>`).join("")}</div>`).join("");
  const targets = Object.keys(sizes);
  const count = (t) => picked(t).length;
  const onward = () => { if (count(target) >= sizes[target]) target = targets.find((t) => count(t) < sizes[t]) || target; };
  target = targets[0];
  const draw = () => {
    const talon = picked("talon");
    document.querySelectorAll("button.card").forEach((b) => {
      const to = picks.get(b.dataset.id);
      b.setAttribute("aria-pressed", String(Boolean(to)));
      b.dataset.to = to || "";
      b.dataset.pos = to === "talon" ? `t${talon.indexOf(b.dataset.id) + 1}` : "";
    });
    document.querySelectorAll("[data-count]").forEach((e) => { e.textContent = count(e.dataset.count); });
    document.querySelectorAll("button.to").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.target === target)));
  };
  $("picker").onclick = (e) => {
    const b = e.target.closest("button.card");
    if (!b) return;
    const id = b.dataset.id;
    if (picks.get(id) === target) picks.delete(id);
    else if (count(target) < sizes[target]) { picks.delete(id); picks.set(id, target); }
    else return;
    onward();
    $(field).value = picks.size ? write() : "";
    draw();
  };
  const fromText = () => { picks = read($(field).value); onward(); draw(); };
  document.querySelectorAll("button.to").forEach((b) => { b.onclick = () => { target = b.dataset.target; draw(); }; });
  $(field).addEventListener("input", fromText);
  $("clear").onclick = () => { $(field).value = ""; target = targets[0]; fromText(); };
  fromText();
}
const picked = (t) => [...picks].filter(([, to]) => to === t).map(([id]) => id);
const byIndex = (a, b) => INDEX[a] - INDEX[b];
// one card token: an id, a tarock's number, a red 1 for A, a black T for 10 (the server reads the rest)
function readCard(token) {
  let t = token.toUpperCase();
  if (/^T?\d+$/.test(t)) t = `T${parseInt(t.replace("T", ""), 10)}`;
  else t = t[0] + ({1: "A", T: "10"}[t.slice(1)] || t.slice(1));
  return INDEX[t] === undefined ? null : t;
}
// a hand: compact (tarocks.♥.♦.♠.♣) or card tokens
function readHand(text) {
  const fields = text.split(".");
  if (fields.length !== 5) return text.split(/[\s,;]+/).filter(Boolean).map(readCard).filter(Boolean);
  const ids = fields[0].split(",").filter(Boolean).map(readCard);
  "HDSC".split("").forEach((s, i) => ids.push(...(fields[i + 1].match(/10|./g) || []).map((r) => readCard(s + r))));
  return ids.filter(Boolean);
}
function compactHand(ids) {
  const desc = ids.slice().sort(byIndex).reverse();
  const suit = (s) => desc.filter((c) => c[0] === s).map((c) => c.slice(1).replace("10", "T")).join("");
  return [desc.filter((c) => c[0] === "T").map((c) => c.slice(1)).join(","), ...["H", "D", "S", "C"].map(suit)].join(".");
}
// deal notation (NOTATION.md 3): [F:|M:|R:]<hand> <hand> <hand>/<t1>,…,<t6>, or an example's name
function readDeal(text) {
  const deal = window.EXAMPLES[text.trim().toLowerCase()] || text;
  const m = /^\s*(?:([FMR])\s*:)?([^/]*)\/?(.*)$/is.exec(deal);
  const seats = {F: "FMR", M: "MRF", R: "RFM"}[(m[1] || "F").toUpperCase()];
  const out = new Map();
  const put = (id, to) => { out.delete(id); out.set(id, to); };
  m[2].split(/[\s_]+/).filter(Boolean).slice(0, 3).forEach((h, i) => readHand(h).forEach((id) => put(id, seats[i])));
  m[3].split(/[\s,;]+/).filter(Boolean).map(readCard).filter(Boolean).forEach((id) => put(id, "talon"));
  return out;
}
const writeDeal = () => `F:${["F", "M", "R"].map((s) => compactHand(picked(s))).join(" ")}/${picked("talon").join(",")}`;
const PICKERS = {
  advise: ["hand", {hand: 16}, () => picked("hand").sort(byIndex).join(" "), (text) => new Map(readHand(text).map((id) => [id, "hand"]))],
  deal: ["deal", {F: 16, M: 16, R: 16, talon: 6}, writeDeal, readDeal],
};

// ---------------------------------------------------------------- start-up
const RENDER = {advise: renderAdvice, deal: renderDeal, review: renderReview};
const MAIN = {advise: "hand", deal: "deal", review: "record"};
const params = new URLSearchParams(location.search);
for (const [k, v] of params) { if ($(k)) $(k).value = v; }
if (PICKERS[PAGE]) buildPicker(...PICKERS[PAGE]);
document.querySelectorAll("[data-fill]").forEach((b) => {
  b.onclick = () => { const [k, v] = b.dataset.fill.split("="); $(k).value = v; $("form").requestSubmit(); };
});
$("cancel").onclick = () => stop("cancelled.");
if (params.get(MAIN[PAGE])) start();
