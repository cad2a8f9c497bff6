// The pages' script: fill the form from the address, run the job (server-sent
// events from /run/<page>), show progress, errors next to their field, and the answer.
// One script for both games: the page says which one it serves (data-game) and brings
// that game's pack (window.CARDS, window.PACK_ROWS) and worked examples.
"use strict";
const PAGE = document.body.dataset.page;
const GAME = document.body.dataset.game || "illustrated";
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const CARD = Object.fromEntries(window.CARDS.map((c) => [c.id, c.label]));
let source = null;

function suitClass(id) {
  return id[0] === "T" || id === "EX" ? "t" : ({H: "h", D: "d", S: "s", C: "c"}[id[0]]);
}
function chip(id, extra = "") {
  return `<span class="chip ${suitClass(id)} ${extra}" data-card="${id}">${esc(CARD[id] || id)}</span>`;
}
function thirds(t) {
  if (t === null || t === undefined) return "?";
  return `${Math.floor(t / 3)}${["", "⅓", "⅔"][t % 3]}`;
}
// French Tarot counts half points: 47 → "23.5", -57 → "-28.5"
function halves(h) {
  if (h === null || h === undefined) return "?";
  const a = Math.abs(h);
  return `${h < 0 ? "-" : ""}${Math.floor(a / 2)}${a % 2 ? ".5" : ""}`;
}
// an exact value, or the bounds a budget left open (a..b*)
function bounds(lo, hi, fmt = halves) {
  return lo === hi ? fmt(lo) : `${fmt(lo)}..${fmt(hi)}*`;
}
const chips = (ids) => ids.map((c) => chip(c)).join("");
const cardList = (text) => chips((text || "").split(/[\s,]+/).filter(Boolean)) || "-";

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
  if (PAGE === "advise" && GAME === "french") return `weighing the contracts on ${p.worlds} worlds…`;
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

// ---------------------------------------------------------------- French Tarot: advice and deal
function renderFrenchAdvice(res) {
  const d = res.json;
  const chien = d.chien ? ` · chien ${cardList(d.chien)}` : "";
  const head = `<h2>Advice for seat ${d.seat}</h2><div class="hand">${cardList(d.hand)}</div>` +
    `<p class="meta">rules: ${esc(d.rules)} · seed ${d.seed} · ${d.worlds} worlds in ${d.seconds.toFixed(1)} s${chien}</p>`;
  const rec = res.text.find((l) => l.startsWith("Recommendation")) || "";
  $("result").innerHTML = head + (rec ? `<p class="rec" id="recommendation">${esc(rec)}</p>` : "") +
    `<pre id="advice">${res.text.map(esc).join("\n")}</pre>`;
  $("result").append(downloads("advice", d, res.csv));
}
function renderFrenchDeal(res) {
  const d = res.json, title = (c) => res.titles[c] || c;
  const rows = d.rows.map((r) => `<tr><td>${r.taker}</td><td>${esc(title(r.contract))}</td><td>${cardList(r.discard)}</td>` +
    `<td class="num">${bounds(...r.half_points_bounds)}</td><td class="num">${bounds(...r.margin_bounds)}</td>` +
    `<td class="num">${bounds(...r.score_bounds, String)}</td><td>${r.made === null ? "?" : r.made ? "yes" : "no"}</td>` +
    `<td class="num">${r.discards_legal ? `${r.discards_examined}/${r.discards_legal}` : "-"}</td>` +
    `<td class="num">${r.nodes.toLocaleString("en")}</td></tr>`).join("");
  const open = d.rows.some((r) => !r.complete);
  let out = `<h2>Double-dummy table</h2><p class="meta">${esc(d.deal)}<br>rules: ${esc(d.rules)} · seat 1 leads` +
    `${d.play ? " · after the cards played" : ""} · card points and margin in points, score per defender` +
    `${open ? " · * over the budget: the bounds proved so far" : ""}</p>` +
    `<table id="ddtable"><thead><tr><th>Taker</th><th>Contract</th><th>Discard</th><th>Points</th><th>Margin</th><th>Score</th><th>Made</th><th>Discards</th><th>Nodes</th></tr></thead><tbody>${rows}</tbody></table>`;
  if (d.cards && res.mover) {
    // the next player's cards: he wants the taker's points high if he is the taker
    const vals = d.cards, ids = Object.keys(vals), high = res.mover === res.taker;
    const key = (c) => high ? vals[c][0] : vals[c][1];
    ids.sort((a, b) => high ? key(b) - key(a) : key(a) - key(b));
    const best = key(ids[0]), r = d.rows[0];
    out += `<h3>Seat ${res.mover} to play — taker ${r.taker}, ${esc(title(r.contract))}</h3>` +
      `<div class="leads">${ids.map((c) => `<span class="lead${key(c) === best ? " best" : ""}">${chip(c)}<b>${bounds(...vals[c])}</b></span>`).join("")}</div>` +
      `<p class="hint">the taker's card points after each card; highlighted: best for seat ${res.mover} (${high ? "highest" : "lowest"})</p>`;
  }
  $("result").innerHTML = out + `<details><summary>as text</summary><pre id="text">${res.text.map(esc).join("\n")}</pre></details>`;
  $("result").append(downloads("deal", d, res.csv));
}

// ---------------------------------------------------------------- review
// The replay draws either game's review from one shape: the cards in play order, each
// with the value before and after it (points; null where not judged) and their texts,
// and the hands at the first trick.
function illustratedReplay(res) {
  const d = res.json, ex = d.exchange;
  const players = d.players.map((p) => `<tr><td>${p.seat}</td><td>${p.role}</td><td class="num">${p.mistakes}</td><td class="num">${p.loss}</td></tr>`).join("");
  return {
    head: `<h2>Review: ${esc(d.record.id || "record")}</h2>` +
      `<p class="meta">${esc(d.record.declarer)} declares ${esc(d.record.contract)}, takes ${esc(d.record.talon_pick || "-")}, discards ${esc(d.record.discard || "-")} · ` +
      `start ${d.start_points}, final ${d.final_points} card points (wins at ${thirds(d.win_thirds)})` +
      `${ex ? ` · exchange: best ${esc(ex.best_group)} discarding ${esc(ex.best_discard)}, loss ${thirds(ex.loss_thirds)}` : ""}</p>`,
    seats: `<table class="small"><thead><tr><th>Seat</th><th>Role</th><th>Mistakes</th><th>Loss</th></tr></thead><tbody>${players}</tbody></table>`,
    hands: res.hands, declarer: d.record.declarer, role: "declarer",
    win: d.win_thirds / 3, winText: `made at ${thirds(d.win_thirds)}`,
    value: "declarer's card points (discard + tricks, double-dummy)",
    cards: d.cards.map((c) => ({card: c.card, seat: c.seat, trick: c.trick, lost: c.loss > 0,
      lossText: `${c.loss}`, lossMark: `−${c.loss}`, note: "no loss", best: c.best,
      before: c.before_thirds / 3, after: c.after_thirds / 3,
      beforeText: thirds(c.before_thirds), afterText: thirds(c.after_thirds)})),
  };
}
function frenchReplay(res) {
  const d = res.json;
  // exact values in half points, estimates (~) as decimals of them, bounds where a budget ran out
  const text = (c, h, b) => c.source === "estimate" ? `~${(h / 2).toFixed(1)}` :
    h !== null && h !== undefined ? halves(h) : b ? bounds(...b) : "?";
  const num = (h) => h === null || h === undefined ? null : h / 2;
  const seats = d.seats.map((p) => `<tr><td>${p.seat}</td><td>${p.role}</td><td class="num">${p.mistakes}</td><td class="num">${halves(p.loss_half)}</td>` +
    `<td class="num">${p.margin_loss_half === null ? "" : halves(p.margin_loss_half)}</td>` +
    `<td class="num">${p.estimated ? `${p.estimated_mistakes}, ~${(p.estimated_loss_half / 2).toFixed(1)}` : ""}</td></tr>`).join("");
  const meta = res.text.slice(0, res.text.indexOf(""));
  return {
    head: `<h2>Review: ${esc(d.record.id || "record")}</h2><p class="meta">${meta.map(esc).join("<br>")}</p>`,
    seats: `<table class="small"><thead><tr><th>Seat</th><th>Role</th><th>Mistakes</th><th>Loss</th><th>Margin loss</th><th>Estimated: mistakes, loss</th></tr></thead><tbody>${seats}</tbody></table>` +
      `<details><summary>as text</summary><pre id="text">${res.text.map(esc).join("\n")}</pre></details>`,
    hands: res.hands, declarer: d.taker, role: "taker",
    win: d.played ? d.played.target_half / 2 : null,
    winText: d.played ? `target ${halves(d.played.target_half)}` : "",
    value: "the taker's card points at the end, with best play",
    cards: d.cards.map((c, i) => {
      const margin = c.margin_loss_half ? ` (margin ${halves(c.margin_loss_half)})` : "";
      const loss = text(c, c.loss_half, c.loss_bounds);
      const note = c.forced ? "forced" : c.source === "unjudged" ? "not judged" :
        c.source === "bounds" ? `loss ${loss}` : c.source === "estimate" ? `no loss (${loss})` : "no loss";
      return {card: c.card, seat: c.seat, trick: c.trick, lost: res.lost[i],
        lossText: loss + margin, lossMark: c.source === "estimate" ? `~−${loss.slice(1)}` : `−${loss}`,
        note, best: c.best, before: num(c.before_half), after: num(c.after_half),
        beforeText: text(c, c.before_half, c.before_bounds), afterText: text(c, c.after_half, c.after_bounds)};
    }),
  };
}
let review = null, step = 0;
function renderReview(res) {
  review = GAME === "french" ? frenchReplay(res) : illustratedReplay(res);
  step = 0;
  const cards = review.cards;
  $("result").innerHTML = review.head +
    `<div class="replay"><div class="controls"><button type="button" id="first">« first</button><button type="button" id="prev">◀ back</button>` +
    `<span id="step"></span><button type="button" id="next">forward ▶</button><button type="button" id="last">last »</button></div>` +
    `<div id="table"></div><p id="verdict" class="verdict"></p><div id="curve"></div><div id="playlist" class="playlist"></div></div>` +
    review.seats;
  const card = (c, i) => `<span class="played${c.lost ? " lost" : ""}" data-step="${i + 1}" title="trick ${c.trick}: ${c.seat} ${c.card}${c.lost ? ", loses " + c.lossText : ""}">${chip(c.card)}${c.lost ? `<b>${c.lossMark}</b>` : ""}</span>`;
  $("playlist").innerHTML = cards.map(card).join("");
  $("playlist").onclick = (e) => { const s = e.target.closest("[data-step]"); if (s) show(+s.dataset.step); };
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(step - 1);
  $("next").onclick = () => show(step + 1);
  $("last").onclick = () => show(cards.length);
  $("result").append(downloads("review", res.json, res.csv));
  show(0);
}
function show(k) {
  const cards = review.cards;
  step = Math.max(0, Math.min(cards.length, k));
  const played = new Set(cards.slice(0, step).map((c) => c.card));
  const c = cards[step - 1];
  const trick = c ? cards.slice(0, step).filter((x) => x.trick === c.trick) : [];
  const seats = Object.keys(review.hands);
  $("table").innerHTML = seats.map((s) => `<div class="seat"><span class="who">${s}${s === review.declarer ? ` (${review.role})` : ""}</span>` +
    `${review.hands[s].filter((x) => !played.has(x)).map((x) => chip(x)).join("")}</div>`).join("") +
    `<div class="trick">${step ? `Trick ${c.trick}: ` : "Before the first trick"}${trick.map((x) => `${x.seat} ${chip(x.card, x.lost ? "lostcard" : "")}`).join(" ")}</div>`;
  $("step").textContent = `card ${step} of ${cards.length}`;
  $("verdict").innerHTML = !c ? "Step forward to play the first card." :
    `${c.seat} plays ${chip(c.card)}: ${review.value} ${c.beforeText} → ${c.afterText}` +
    (c.lost ? ` · <span class="loss">loses ${esc(c.lossText)}</span>; best: ${chips(c.best)}` : ` · ${esc(c.note)}`);
  document.querySelectorAll(".played").forEach((e) => e.classList.toggle("now", +e.dataset.step === step));
  $("curve").innerHTML = curve(cards, step);
}
function curve(cards, now) {
  const W = 720, H = 170, P = 28, n = cards.length, win = review.win;
  // a card without a value (not judged) leaves a gap in the line
  const vals = [cards.length ? cards[0].before : 0, ...cards.map((c) => c.after)];
  const known = vals.filter((v) => v !== null);
  if (!known.length) return "";
  const span = win === null ? known : [win, ...known];
  const lo = Math.min(...span) - 2, hi = Math.max(...span) + 2;
  const x = (i) => P + (W - 2 * P) * i / Math.max(1, n), y = (v) => H - P + (2 * P - H) * (v - lo) / (hi - lo);
  let pen = "M";
  const path = vals.map((v, i) => {
    if (v === null) { pen = "M"; return ""; }
    const at = `${pen}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
    pen = "L";
    return at;
  }).filter(Boolean).join(" ");
  const losses = cards.map((c, i) => c.lost && c.after !== null ? `<circle cx="${x(i + 1)}" cy="${y(c.after)}" r="4" class="lossdot"><title>${c.seat} ${c.card}: ${esc(c.lossMark)}</title></circle>` : "").join("");
  const ticks = [Math.min(...known), Math.max(...known)].map((v) => `<text x="${P - 4}" y="${y(v) + 4}" text-anchor="end">${Math.round(v)}</text>`).join("");
  const target = win === null ? "" : `<line x1="${P}" y1="${y(win)}" x2="${W - P}" y2="${y(win)}" class="win"/><text x="${W - P}" y="${y(win) - 4}" text-anchor="end">${esc(review.winText)}</text>`;
  return `<svg id="valuecurve" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(review.value)} after each card">` +
    `<line x1="${P}" y1="${H - P}" x2="${W - P}" y2="${H - P}" class="axis"/>${ticks}${target}` +
    `<line x1="${x(now)}" y1="${P / 2}" x2="${x(now)}" y2="${H - P}" class="now"/>` +
    `<path d="${path}" class="curve"/>${losses}` +
    `<text x="${W / 2}" y="${H - 6}" text-anchor="middle">${esc(review.value)} after each card; red: a card that lost points</text></svg>`;
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
  let at = 0;
  const rows = window.PACK_ROWS.map((n) => window.CARDS.slice(at, (at += n)));
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

// French Tarot (FRENCH_NOTATION.md): a trump's number, the Excuse, a suit card suit first
function readFrenchCard(token) {
  let t = token.toUpperCase();
  if (/^T?\d+$/.test(t)) t = `T${parseInt(t.replace("T", ""), 10)}`;
  else if (["E", "EX", "EXCUSE"].includes(t)) t = "EX";
  else t = t[0] + ({1: "1", A: "1", T: "10"}[t.slice(1)] || t.slice(1));
  return INDEX[t] === undefined ? null : t;
}
// the compact form's ranks, the French letters too (R roi, D dame, V valet)
const FRENCH_RANKS = {R: "K", D: "Q", V: "J", T: "10", A: "1"};
// a hand: compact (trumps.♠.♥.♦.♣) or card tokens
function readFrenchHand(text) {
  const fields = text.split(".");
  if (fields.length !== 5) return text.split(/[\s,;]+/).filter(Boolean).map(readFrenchCard).filter(Boolean);
  const ids = fields[0].split(",").filter(Boolean).map(readFrenchCard);
  "SHDC".split("").forEach((s, i) => ids.push(...(fields[i + 1].toUpperCase().match(/10|./g) || [])
    .map((r) => s + (FRENCH_RANKS[r] || r)).map((id) => (INDEX[id] === undefined ? null : id))));
  return ids.filter(Boolean);
}
// canonical order: trumps from 21 down, the Excuse, then ♠ ♥ ♦ ♣ each from the King down
const frenchOrder = (ids) => {
  const desc = ids.slice().sort(byIndex).reverse();
  return [...desc.filter((c) => c[0] === "T"), ...desc.filter((c) => c === "EX"),
    ...["S", "H", "D", "C"].flatMap((s) => desc.filter((c) => c[0] === s))];
};
function compactFrenchHand(ids) {
  const desc = frenchOrder(ids);
  const trumps = desc.filter((c) => c[0] === "T").map((c) => c.slice(1));
  if (desc.includes("EX")) trumps.push("E");
  const suit = (s) => desc.filter((c) => c[0] === s).map((c) => c.slice(1).replace("10", "T")).join("");
  return [trumps.join(","), ...["S", "H", "D", "C"].map(suit)].join(".");
}
// deal notation: [1:|2:|3:|4:]<hand> <hand> <hand> <hand>/<chien>, or an example's name
function readFrenchDeal(text) {
  const deal = window.EXAMPLES[text.trim().toLowerCase()] || text;
  const m = /^\s*(?:([1-4])\s*:)?([^/]*)\/?(.*)$/s.exec(deal);
  const first = parseInt(m[1] || "1", 10) - 1;
  const out = new Map();
  const put = (id, to) => { out.delete(id); out.set(id, to); };
  m[2].split(/[\s_]+/).filter(Boolean).slice(0, 4).forEach((h, i) => readFrenchHand(h).forEach((id) => put(id, String((first + i) % 4 + 1))));
  m[3].split(/[\s,;]+/).filter(Boolean).map(readFrenchCard).filter(Boolean).forEach((id) => put(id, "chien"));
  return out;
}
const writeFrenchDeal = () => `1:${["1", "2", "3", "4"].map((s) => compactFrenchHand(picked(s))).join(" ")}/${frenchOrder(picked("chien")).join(",")}`;
const PICKERS = GAME === "french" ? {
  advise: ["hand", {hand: 18}, () => frenchOrder(picked("hand")).join(" "), (text) => new Map(readFrenchHand(text).map((id) => [id, "hand"]))],
  deal: ["deal", {1: 18, 2: 18, 3: 18, 4: 18, chien: 6}, writeFrenchDeal, readFrenchDeal],
} : {
  advise: ["hand", {hand: 16}, () => picked("hand").sort(byIndex).join(" "), (text) => new Map(readHand(text).map((id) => [id, "hand"]))],
  deal: ["deal", {F: 16, M: 16, R: 16, talon: 6}, writeDeal, readDeal],
};

// ---------------------------------------------------------------- start-up
const RENDER = GAME === "french" ? {advise: renderFrenchAdvice, deal: renderFrenchDeal, review: renderReview} :
  {advise: renderAdvice, deal: renderDeal, review: renderReview};
const MAIN = {advise: "hand", deal: "deal", review: "record"};
const params = new URLSearchParams(location.search);
for (const [k, v] of params) { if ($(k)) $(k).value = v; }
if (PICKERS[PAGE]) buildPicker(...PICKERS[PAGE]);
document.querySelectorAll("[data-fill]").forEach((b) => {
  b.onclick = () => { const [k, v] = b.dataset.fill.split("="); $(k).value = v; $("form").requestSubmit(); };
});
$("cancel").onclick = () => stop("cancelled.");
if (params.get(MAIN[PAGE])) start();
