// gossipkit explorer: one page, no framework. Every number shown comes
// from the server's /api/CMD?FLAGS, which is `gossipkit CMD --format json
// FLAGS` byte for byte; the URL holds the whole state with the CLI's flag
// names, so a link reproduces the answer.
"use strict";

// The forms, by protocol: name = the CLI flag, def = its default.
const common = [
  { name: "level", label: "level L", def: "0.99", help: "coverage level in (0, 1]" },
  { name: "deadline", label: "deadline D", def: "", help: "rounds; P(T_L ≤ D)" },
  { name: "confidence", label: "confidence P", def: "0.95", help: "t_P: the P-quantile" },
];
const forms = {
  shuffle: [
    { name: "N", label: "N", def: "1000", help: "nodes" },
    { name: "n", label: "n", def: "500", help: "distinct items" },
    { name: "c", label: "c", def: "100", help: "cache size" },
    { name: "s", label: "s", def: "50", help: "exchange size, or LO:HI[:STEP]" },
    { name: "initial", label: "K", def: "1", help: "initial holders" },
    { name: "loss", label: "loss ε", def: "0", help: "each request and reply lost with ε; or LO:HI:STEP with D" },
    ...common,
    { name: "time", label: "time model", def: "continuous", options: ["continuous", "shuffles"] },
    { name: "pdrop", label: "P_drop", def: "simplified", options: ["simplified", "gamma", "exact"] },
    { name: "method", label: "method", def: "auto", options: ["auto", "exact", "asymptotic", "mc"] },
    { name: "reps", label: "reps", def: "1000", help: "replications of mc" },
    { name: "seed", label: "seed", def: "1", help: "seed of mc" },
    { group: "x(t), y(t) and Fig. 4" },
    { name: "sim-reps", label: "MC bands", def: "100", help: "sim replications (0: none)", page: true },
    { name: "cs", label: "Fig. 4 c", def: "250", help: "cache size c", page: true },
    { name: "ss", label: "Fig. 4 s", def: "5", help: "exchange size s", page: true },
    { name: "n-max", label: "Fig. 4 n-max", def: "3000", help: "largest n", page: true },
    { name: "step", label: "Fig. 4 step", def: "25", help: "step in n", page: true },
  ],
  broadcast: [
    // preset: memberlist's named configurations (plan --preset; the names
    // are broadcast.PresetNames, checked by TestServePresetOptions). The
    // fields marked preset are the ones it sets: left empty, the preset's
    // value applies; given, theirs does, as on the command line.
    { name: "preset", label: "memberlist preset", def: "", options: ["", "memberlist-lan", "memberlist-wan", "memberlist-local"], labels: { "": "none" }, help: "memberlist's Default…Config (plan --preset); a field given overrides it" },
    { name: "N", label: "N", def: "1000", help: "nodes" },
    { name: "fanout", label: "fanout k", def: "", ph: "3", preset: true, help: "peers a round, or LO:HI[:STEP]" },
    { name: "loss", label: "loss ε", def: "0", help: "message loss in [0, 1)" },
    { name: "failed", label: "failed φ", def: "0", help: "share of nodes down" },
    { name: "budget", label: "budget", def: "", preset: true, help: "B, memberlist[:MULT], a range; empty: none" },
    { name: "interval", label: "interval", def: "", preset: true, help: "seconds a round (memberlist: 0.2)" },
    { name: "sync-interval", label: "sync interval", def: "", preset: true, help: "seconds between anti-entropy syncs (memberlist's PushPullInterval); empty: none" },
    { name: "message-bytes", label: "message bytes", def: "", help: "bytes per message" },
    { name: "max-miss", label: "max P(miss)", def: "", help: "target: the chance some live node is never informed; empty: none" },
    ...common,
    { name: "time", label: "time model", def: "", options: ["", "rounds", "async"], labels: { "": "default" }, preset: true, help: "rounds, or async: each node's ticker at its own phase (times in intervals)" },
    { name: "method", label: "method", def: "auto", options: ["auto", "exact", "asymptotic", "mc"] },
    { name: "reps", label: "reps", def: "1000", help: "replications of mc" },
    { name: "seed", label: "seed", def: "1", help: "seed of mc" },
  ],
};
const protocols = ["shuffle", "push", "pull", "push-pull"];
const formOf = (p) => (p === "shuffle" ? forms.shuffle : forms.broadcast);
// unit is what a broadcast's T_L counts: gossip intervals under the async
// clock (--time async, which a preset implies), rounds otherwise.
const unit = () => (gk.protocol !== "shuffle" && (gk.values.time === "async" || (gk.values.preset && gk.values.time !== "rounds")) ? "intervals" : "rounds");
const $ = (id) => document.getElementById(id);

// gk is the page's state, read by the browser tests.
const gk = (window.gk = { protocol: "shuffle", values: {}, renders: 0, timings: [], plan: null, errors: 0, faults: [] });
// Script errors and refused loads (the content security policy), for the tests.
window.addEventListener("error", (e) => gk.faults.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => gk.faults.push(String(e.reason)));
document.addEventListener("securitypolicyviolation", (e) => gk.faults.push("CSP: " + e.violatedDirective + " " + e.blockedURI));

// ---- state <-> URL ----
function readURL() {
  const q = new URLSearchParams(location.search);
  gk.protocol = protocols.includes(q.get("protocol")) ? q.get("protocol") : "shuffle";
  gk.values = {};
  for (const f of formOf(gk.protocol)) if (f.name) gk.values[f.name] = q.has(f.name) ? q.get(f.name) : f.def;
}
function stateQuery() {
  const q = new URLSearchParams();
  q.set("protocol", gk.protocol);
  for (const f of formOf(gk.protocol)) if (f.name && gk.values[f.name] !== "") q.set(f.name, gk.values[f.name]);
  return q.toString();
}
function writeURL() {
  const url = "?" + stateQuery();
  history.replaceState(null, "", url);
  $("permalink").href = url;
}
// The flags of `plan` (the page's own fields left out; an empty field is
// the CLI's default; the shuffle is plan's default protocol).
function planFlags() {
  const q = new URLSearchParams();
  if (gk.protocol !== "shuffle") q.set("protocol", gk.protocol);
  for (const f of formOf(gk.protocol)) if (f.name && !f.page && gk.values[f.name] !== "") q.set(f.name, gk.values[f.name]);
  return q;
}

// ---- form ----
function buildForm() {
  const box = $("fields");
  box.textContent = "";
  let parent = box;
  for (const f of formOf(gk.protocol)) {
    if (f.group) {
      parent = document.createElement("fieldset");
      const lg = document.createElement("legend");
      lg.textContent = f.group;
      parent.appendChild(lg);
      box.appendChild(parent);
      continue;
    }
    const row = document.createElement("div");
    row.className = "field";
    const lab = document.createElement("label");
    lab.htmlFor = "f-" + f.name;
    lab.textContent = f.label;
    if (f.help) {
      const sm = document.createElement("small");
      sm.textContent = f.help;
      lab.appendChild(sm);
    }
    let el;
    if (f.options) {
      el = document.createElement("select");
      for (const o of f.options) el.add(new Option(f.labels && o in f.labels ? f.labels[o] : o, o));
    } else {
      el = document.createElement("input");
      el.type = "text";
      el.inputMode = "decimal";
    }
    el.id = "f-" + f.name;
    el.name = f.name;
    el.value = gk.values[f.name];
    el.addEventListener("change", () => edit(f.name, el.value, true));
    el.addEventListener("input", () => edit(f.name, el.value, false));
    row.append(lab, el);
    parent.appendChild(row);
  }
  placeholders();
  $("form-hint").textContent =
    gk.protocol === "shuffle"
      ? "The paper's shuffle: T_L, the time until ⌈L·N⌉ nodes have held the item."
      : gk.protocol + " broadcast: T_L, the rounds (or gossip intervals, under the async clock) until ⌈L·live⌉ live nodes are informed.";
  for (const b of document.querySelectorAll("#tabs button")) b.classList.toggle("on", b.dataset.protocol === gk.protocol);
  $("shuffle-figs").hidden = gk.protocol !== "shuffle";
}
// placeholders shows what an empty field means: the CLI's default, or
// "preset" where the chosen preset sets the field.
function placeholders() {
  for (const f of formOf(gk.protocol)) {
    const el = f.name && !f.options && $("f-" + f.name);
    if (el) el.placeholder = f.preset && gk.values.preset ? "preset" : f.ph || (f.def === "" ? "—" : f.def);
  }
}
let debounce = 0;
function edit(name, value, now) {
  gk.values[name] = value.trim();
  if (name === "preset") placeholders();
  writeURL();
  clearTimeout(debounce);
  if (now) update();
  else debounce = setTimeout(update, 300);
}

// ---- requests ----
let inflight = []; // AbortControllers and EventSources of the current answer
function cancelAll() {
  for (const x of inflight) (x.abort || x.close).call(x);
  inflight = [];
  $("progress").hidden = true;
}
async function getText(path, q) {
  const ac = new AbortController();
  inflight.push(ac);
  const r = await fetch(path + "?" + q.toString(), { signal: ac.signal });
  const body = await r.text();
  if (!r.ok) throw new APIError(r.status, body.trim());
  return body;
}
class APIError extends Error {
  constructor(status, msg) {
    super(msg);
    this.status = status;
  }
}
// plan runs as Server-Sent Events: progress while it runs (the exact chain
// at large N, Monte Carlo), the answer at the end; closing the stream stops
// the command on the server.
function planStream(q) {
  return new Promise((resolve, reject) => {
    const es = new EventSource("/api/events/plan?" + q.toString());
    inflight.push(es);
    const t0 = performance.now();
    es.addEventListener("progress", (ev) => {
      const p = JSON.parse(ev.data);
      if (performance.now() - t0 < 300 && p.done < p.total) return; // short answers show no bar
      $("progress").hidden = false;
      $("progress-bar").max = p.total;
      $("progress-bar").value = p.done;
      $("progress-text").textContent = `${p.done} of ${p.total} (${((100 * p.done) / p.total).toFixed(1)} %)`;
    });
    es.addEventListener("result", (ev) => {
      es.close();
      $("progress").hidden = true;
      resolve(JSON.parse(ev.data).body);
    });
    es.addEventListener("failure", (ev) => {
      es.close();
      $("progress").hidden = true;
      const f = JSON.parse(ev.data);
      reject(new APIError(f.status, f.message));
    });
    es.onerror = () => {
      es.close();
      reject(new APIError(0, "the server closed the connection"));
    };
  });
}

let generation = 0;
let lastKey = null; // the state of the answer shown or coming
async function update() {
  // Typing then leaving a field asks twice (after a pause, and on
  // "change"): the same state is not computed again.
  const key = stateQuery();
  if (key === lastKey) return;
  lastKey = key;
  cancelAll();
  const gen = ++generation;
  const t0 = performance.now();
  $("cli").textContent = "gossipkit plan " + argsOf(planFlags()).join(" ");
  setStatus("busy", "computing…");
  const tick = setInterval(() => gen === generation && $("status").className === "busy" && setStatus("busy", `computing… ${((performance.now() - t0) / 1000).toFixed(0)} s`), 1000);
  $("results").classList.add("busy");
  try {
    const body = await planStream(planFlags());
    clearInterval(tick);
    if (gen !== generation) return;
    gk.plan = JSON.parse(body);
    // The row drawn boldly and whose s the curves use: the fastest, or
    // without one (no row meets D) the smallest t_confidence.
    const rows = gk.plan.rows || [];
    gk.selected = gk.plan.best ? rows.findIndex((r) => same(r, gk.plan.best)) : rows.reduce((b, r, i) => (b < 0 || r.t_confidence < rows[b].t_confidence ? i : b), -1);
    for (const id of ["cdf", "plan-table", "curves", "fig4"]) $(id).classList.remove("stale");
    renderPlan();
    setStatus("", "");
    const ms = performance.now() - t0;
    gk.timings.push(ms);
    gk.renders++;
    if (gk.protocol === "shuffle") figures(gen);
  } catch (e) {
    clearInterval(tick);
    if (gen !== generation) return;
    lastKey = null; // the same state may be asked again (a busy server)
    gk.errors++;
    setStatus("error", e.message + (/--protocol: unknown flag/.test(e.message) ? " — this build's plan has the shuffle only; push, pull and push–pull need a gossipkit whose plan takes --protocol." : ""));
    for (const id of ["cdf", "plan-table", "curves", "fig4"]) $(id).classList.add("stale");
    $("headline").textContent = "";
  }
}
function argsOf(q) {
  const a = [];
  for (const [k, v] of q) a.push((k.length === 1 ? "-" : "--") + k, /^[\w.:,+-]+$/.test(v) ? v : JSON.stringify(v));
  return a;
}
function setStatus(cls, text) {
  $("status").className = cls;
  $("status").textContent = text;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// ---- formatting ----
function fmt(v) {
  if (v === null || v === undefined) return "—";
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v !== "number") return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e7) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e7)) return v.toExponential(3).replace("e+", "e");
  return String(Number(v.toPrecision(4)));
}

// ---- the plan: headline, CDF, table ----
// The sweep's variable: s for the shuffle; for the broadcast protocols the
// first columns before "method" (fanout, budget).
function keyCols(rows) {
  const keys = Object.keys(rows[0] || {});
  const m = keys.indexOf("method");
  return m > 0 ? keys.slice(0, m) : keys.slice(0, 1);
}
function rowName(r, kc) {
  return kc.map((k) => `${k} = ${fmt(r[k])}`).join(", ");
}
function renderPlan() {
  const p = gk.plan;
  const rows = p.rows || [];
  const kc = keyCols(rows);
  const best = rows.findIndex((r) => p.best && same(r, p.best));
  const cheap = rows.findIndex((r) => p.cheapest && same(r, p.cheapest));
  // Headline.
  const h = $("headline");
  h.textContent = "";
  const conf = Number(gk.values.confidence || 0.95);
  const D = Number(gk.values.deadline || 0);
  const add = (t, bold) => {
    const el = document.createElement(bold ? "b" : "span");
    el.textContent = t;
    h.appendChild(el);
  };
  if (p.best) {
    add(`Fastest: ${rowName(p.best, kc)}`, true);
    add(` — t_${conf} = ${fmt(p.best.t_confidence)} ${unit()}, mean ${fmt(p.best.mean)}`);
    if (D > 0) {
      add(", P(T_L ≤ D) = ");
      const pd = document.createElement("b");
      pd.id = "p-deadline";
      pd.textContent = fmt(p.best.p_deadline);
      h.appendChild(pd);
    }
    add(` (${p.best.method}). `);
    if (typeof p.best.p_miss === "number" && p.best.p_miss > 0) {
      add(`P(some live node missed) = `);
      const pm = document.createElement("b");
      pm.id = "p-miss";
      pm.textContent = `${fmt(p.best.p_miss)} ± ${fmt(100 * p.best.p_miss_rel_err)} %`;
      h.appendChild(pm);
      add(`, a given node ${fmt(p.best.residue)}. `);
    }
    if (p.cheapest && same(p.cheapest, p.best) && rows.length > 1) add("Also the cheapest.");
    if (p.cheapest && !same(p.cheapest, p.best)) add(`Cheapest: ${rowName(p.cheapest, kc)} (t_${conf} = ${fmt(p.cheapest.t_confidence)}).`);
  } else if (D > 0 || Number(gk.values["max-miss"] || 0) > 0) {
    const goals = [];
    if (D > 0) goals.push(`the deadline D = ${D} with probability ${conf}`);
    if (Number(gk.values["max-miss"] || 0) > 0) goals.push(`P(miss) ≤ ${gk.values["max-miss"]}`);
    add(`No row meets ${goals.join(" and ")}.`, true);
    const c = rows[gk.selected];
    if (c) add(` Closest: ${rowName(c, kc)}, t_${conf} = ${fmt(c.t_confidence)} ${unit()}, P(T_L ≤ D) = ${fmt(c.p_deadline)}.`);
  }
  // Table: every column of the CLI's answer, in its order.
  const t = $("plan-table");
  t.textContent = "";
  t.classList.remove("stale");
  if (!rows.length) return;
  const keys = Object.keys(rows[0]).filter((k) => k !== "cdf"); // the distribution is drawn, not tabled
  const thead = t.createTHead().insertRow();
  for (const k of keys) {
    const th = document.createElement("th");
    th.textContent = k;
    if (k === "method") th.className = "t";
    thead.appendChild(th);
  }
  const tb = t.createTBody();
  rows.forEach((r, i) => {
    const tr = tb.insertRow();
    tr.dataset.row = i;
    if (i === best) tr.classList.add("best");
    if (i === cheap) tr.classList.add("cheapest");
    if (i === gk.selected) tr.classList.add("sel");
    for (const k of keys) {
      const td = tr.insertCell();
      td.dataset.k = k;
      td.textContent = fmt(r[k]);
      if (typeof r[k] === "number") td.title = String(r[k]);
      if (k === "method") td.className = "t";
    }
    tr.addEventListener("click", () => {
      gk.selected = i;
      renderPlan();
      if (gk.protocol === "shuffle") figures(generation);
    });
  });
  drawCDF(rows, kc, best);
}

const palette = ["#3f7ddb", "#d9662b", "#2e9e5b", "#9b59b6", "#c0392b", "#16a3a8", "#b58b00", "#5d6d7e"];
const qs = [["q05", 0.05], ["q25", 0.25], ["q50", 0.5], ["q75", 0.75], ["q95", 0.95]];
function drawCDF(rows, kc, best) {
  const conf = Number(gk.values.confidence || 0.95);
  const D = Number(gk.values.deadline || 0);
  // At most 12 curves: every row if few, else spread over the sweep plus the fastest and the cheapest.
  let idx = rows.map((_, i) => i);
  if (rows.length > 12) {
    const step = (rows.length - 1) / 9;
    const set = new Set([...Array(10).keys()].map((j) => Math.round(j * step)));
    set.add(best);
    set.add(gk.selected);
    idx = [...set].filter((i) => i >= 0).sort((a, b) => a - b);
  }
  const series = [];
  let partial = false,
    steps = false,
    lawCDF = false;
  let xmin = Infinity,
    xmax = -Infinity;
  for (const [j, i] of idx.entries()) {
    const r = rows[i];
    // Broadcast: the quantiles are those of T_L given that L is reached
    // (p_reach); P(T_L ≤ t) is p_reach times their levels.
    const reach = typeof r.p_reach === "number" ? r.p_reach : 1;
    if (reach < 1 - 1e-9) partial = true; // exact answers print 0.9999999999999
    // T_L in whole rounds (the broadcast protocols): every quantile is an
    // integer, and the CDF is a staircase that holds each level until the
    // next quantile (a lower bound of the law between them).
    const step = qs.every(([k]) => typeof r[k] !== "number" || Number.isInteger(r[k]));
    if (step) steps = true;
    const pts = qs.filter(([k]) => typeof r[k] === "number").map(([k, p]) => [r[k], p * reach]);
    if (typeof r.t_confidence === "number") pts.push([r.t_confidence, conf]);
    if (D > 0 && typeof r.p_deadline === "number" && r.p_deadline > 0.001 && r.p_deadline < 0.999) pts.push([D, r.p_deadline]);
    pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (!pts.length) continue;
    for (const [x] of pts) (xmin = Math.min(xmin, x)), (xmax = Math.max(xmax, x));
    const strong = i === gk.selected || (gk.selected < 0 && i === best);
    const label = rowName(r, kc) + (i === best ? " (fastest)" : best < 0 && i === gk.selected ? " (smallest t_P)" : "");
    // The law's own P(T_L ≤ t) at every round (plan's cdf, the p_deadline
    // of --deadline t), as steps from 0, with the quantiles marked on it.
    if (Array.isArray(r.cdf) && r.cdf.length) {
      lawCDF = true;
      const law = [[r.cdf[0][0], 0], ...r.cdf];
      for (const [x] of law) (xmin = Math.min(xmin, x)), (xmax = Math.max(xmax, x));
      series.push({ pts: law, step: true, color: palette[j % palette.length], width: strong ? 3 : 1.5, label, dots: pts });
      continue;
    }
    series.push({ pts, step, color: palette[j % palette.length], width: strong ? 3 : 1.5, label, marks: true });
  }
  if (!series.length) {
    $("cdf").textContent = "";
    return;
  }
  if (D > 0) (xmin = Math.min(xmin, D)), (xmax = Math.max(xmax, D));
  const pad = (xmax - xmin) * 0.08 || 1;
  const v = [];
  if (D > 0) v.push({ x: D, label: `D = ${fmt(D)}`, color: "#c0392b" });
  const notes = [];
  if (lawCDF) notes.push("T_L counts whole rounds: the CDF is the law's P(T_L ≤ t) at every round, drawn as steps, with the quantiles, t_P and P(T_L ≤ D) marked on it.");
  else if (steps) notes.push("T_L counts whole rounds: the CDF is drawn as steps that hold each quantile's level until the next.");
  if (partial) notes.push("Some rows reach L with probability p_reach < 1: their quantiles are given L is reached, drawn at p_reach times their level.");
  $("cdf-note").textContent = notes.join(" ");
  $("cdf").replaceChildren(
    chart({
      id: "cdf-svg",
      x: [Math.max(0, xmin - pad), xmax + pad],
      y: [0, 1],
      xLabel: `T_L (${unit()})`,
      yLabel: "P(T_L ≤ t)",
      series,
      vlines: v,
      hlines: [{ y: conf, label: `P = ${conf}`, color: "#7f8c8d" }],
    })
  );
}

// ---- x(t), y(t) and Fig. 4 (the shuffle) ----
async function figures(gen) {
  const rows = gk.plan.rows;
  const r = rows[gk.selected >= 0 ? gk.selected : 0];
  if (!r) return;
  const v = gk.values;
  const tMax = Math.max(10, Math.ceil((r.q95 || r.mean || 100) * 1.3));
  const dt = Math.max(1, Math.ceil(tMax / 200));
  const base = { N: v.N, n: v.n, c: v.c, s: String(r.s), initial: v.initial, pdrop: v.pdrop };
  // The curves of the selected row's loss (a grid of ε has one per row).
  const loss = r.loss !== undefined ? String(r.loss) : v.loss || "0";
  if (Number(loss) !== 0) base.loss = loss;
  const odeQ = new URLSearchParams({ ...base, "t-max": tMax, dt });
  gk.odeQuery = odeQ;
  // The Monte Carlo bands: the lumped chain under the Poisson clock for the
  // continuous time model, the pairwise chain in rounds for "shuffles".
  // The server runs sim up to N = 20000 (its bound for a page's bands).
  const reps = Number(v.N) <= 20000 ? Number(v["sim-reps"] || 0) : 0;
  const simQ = new URLSearchParams({ ...base, rounds: tMax, reps: Math.max(1, reps) });
  if (v.time === "shuffles") simQ.set("model", "markov"), simQ.set("schedule", "rounds");
  else simQ.set("model", "lumped"), simQ.set("schedule", "continuous");
  gk.simQuery = simQ;
  const c4 = Number(v.cs || 250),
    step = Number(v.step || 25);
  const f4 = new URLSearchParams({ n: `${c4 + step}:${v["n-max"] || 3000}:${step}`, c: String(c4), s: v.ss || "5" });
  gk.fig4Query = f4;
  $("curves-note").textContent = `— s = ${r.s}${base.loss ? `, ε = ${base.loss}` : ""}: ode (lines)` + (reps > 0 ? `, sim ${simQ.get("model")} 5–95 % bands over ${reps} runs` : Number(v.N) > 20000 ? " (Monte Carlo bands up to N = 20000)" : "");
  $("fig4-note").textContent = `— c = ${c4}, s = ${f4.get("s")}, n = ${f4.get("n")} (exact fractions)`;
  const jobs = [
    getText("/api/ode", odeQ).then((b) => {
      gk.ode = JSON.parse(b);
    }),
    reps > 0
      ? getText("/api/sim", simQ).then((b) => {
          gk.sim = JSON.parse(b);
        })
      : Promise.resolve((gk.sim = null)),
  ];
  try {
    await Promise.all(jobs);
    if (gen !== generation) return;
    drawCurves(tMax);
  } catch (e) {
    if (gen === generation && e.name !== "AbortError") curveError("curves", e);
  }
  try {
    const b = await getText("/api/pdrop", f4);
    if (gen !== generation) return;
    gk.fig4 = JSON.parse(b);
    drawFig4(c4, f4.get("s"));
  } catch (e) {
    if (gen === generation && e.name !== "AbortError") curveError("fig4", e);
  }
  gk.figures = (gk.figures || 0) + 1;
}
function curveError(id, e) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = e.message;
  $(id).replaceChildren(p);
}
function drawCurves(tMax) {
  const series = [];
  const sim = gk.sim && gk.sim.rounds;
  if (sim) {
    series.push({ band: sim.map((r) => [r.t, r.y_q05, r.y_q95]), color: "#2e9e5b" });
    series.push({ band: sim.map((r) => [r.t, r.x_q05, r.x_q95]), color: "#3f7ddb" });
  }
  series.push({ pts: gk.ode.map((r) => [r.t, r.y]), color: "#2e9e5b", width: 2, label: "y(t) coverage" });
  series.push({ pts: gk.ode.map((r) => [r.t, r.x]), color: "#3f7ddb", width: 2, label: "x(t) replication" });
  if (sim) series.push({ pts: sim.map((r) => [r.t, r.y_mean]), color: "#1b5e35", width: 1, dash: "4 3", label: "sim mean y" });
  const D = Number(gk.values.deadline || 0);
  $("curves").replaceChildren(
    chart({ id: "curves-svg", legend: "tl", x: [0, tMax], y: [0, 1], xLabel: "t (rounds)", yLabel: "share of nodes", series, vlines: D > 0 ? [{ x: D, label: `D = ${fmt(D)}`, color: "#c0392b" }] : [] })
  );
}
function drawFig4(c, s) {
  const pts = gk.fig4.filter((r) => typeof r.log10_abs_diff === "number").map((r) => [r.n, r.log10_abs_diff]);
  if (!pts.length) {
    curveError("fig4", new Error("E = S at every n (s = 1): no error to draw"));
    return;
  }
  const ys = pts.map((p) => p[1]);
  $("fig4").replaceChildren(
    chart({
      id: "fig4-svg",
      legend: "tr",
      x: [pts[0][0], pts[pts.length - 1][0]],
      y: [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))],
      xLabel: "n (items)",
      yLabel: "log10 |E − S|",
      series: [{ pts, color: "#9b59b6", width: 2, label: `c = ${c}, s = ${s}` }],
    })
  );
}

// ---- SVG charts, by hand ----
const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function ticks(lo, hi, n) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= n) || mag * 10;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}
function chart(o) {
  const W = 720,
    H = 330,
    L = 62,
    R = 16,
    T = 14,
    B = 44;
  const sx = (x) => L + ((x - o.x[0]) / (o.x[1] - o.x[0] || 1)) * (W - L - R);
  const sy = (y) => H - B - ((y - o.y[0]) / (o.y[1] - o.y[0] || 1)) * (H - T - B);
  const svg = el("svg", { xmlns: NS, id: o.id, viewBox: `0 0 ${W} ${H}`, width: W, height: H, "font-family": "DejaVu Sans, Arial, sans-serif", "font-size": 12 });
  svg.appendChild(el("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  const g = el("g", { stroke: "#e3e6ec", "stroke-width": 1 });
  for (const x of ticks(o.x[0], o.x[1], 8)) {
    g.appendChild(el("line", { x1: sx(x), x2: sx(x), y1: T, y2: H - B }));
    svg.appendChild(el("text", { x: sx(x), y: H - B + 16, "text-anchor": "middle", fill: "#333" }, fmt(x)));
  }
  for (const y of ticks(o.y[0], o.y[1], 5)) {
    g.appendChild(el("line", { x1: L, x2: W - R, y1: sy(y), y2: sy(y) }));
    svg.appendChild(el("text", { x: L - 6, y: sy(y) + 4, "text-anchor": "end", fill: "#333" }, fmt(y)));
  }
  svg.insertBefore(g, svg.children[1]);
  svg.appendChild(el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: "#888" }));
  svg.appendChild(el("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", fill: "#111" }, o.xLabel));
  svg.appendChild(el("text", { x: 14, y: (T + H - B) / 2, "text-anchor": "middle", fill: "#111", transform: `rotate(-90 14 ${(T + H - B) / 2})` }, o.yLabel));
  const clip = el("clipPath", { id: o.id + "-clip" });
  clip.appendChild(el("rect", { x: L, y: T, width: W - L - R, height: H - T - B }));
  svg.appendChild(clip);
  const plot = el("g", { "clip-path": `url(#${o.id}-clip)` });
  svg.appendChild(plot);
  const legend = [];
  for (const s of o.series) {
    if (s.band) {
      const up = s.band.map((p) => `${sx(p[0]).toFixed(1)},${sy(p[2]).toFixed(1)}`);
      const lo = s.band.map((p) => `${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).reverse();
      plot.appendChild(el("polygon", { points: up.concat(lo).join(" "), fill: s.color, "fill-opacity": 0.18, stroke: "none" }));
      continue;
    }
    const d = s.pts
      .map((p, i) => {
        const to = `${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`;
        if (!i) return "M" + to;
        // A step: along at the previous level, then up.
        return s.step ? `L${sx(p[0]).toFixed(1)},${sy(s.pts[i - 1][1]).toFixed(1)}L${to}` : "L" + to;
      })
      .join("");
    const a = { d, fill: "none", stroke: s.color, "stroke-width": s.width || 1.5, "stroke-linejoin": "round" };
    if (s.dash) a["stroke-dasharray"] = s.dash;
    plot.appendChild(el("path", a));
    if (s.marks) for (const p of s.pts) plot.appendChild(el("circle", { cx: sx(p[0]).toFixed(1), cy: sy(p[1]).toFixed(1), r: 2.5, fill: s.color }));
    for (const p of s.dots || []) plot.appendChild(el("circle", { cx: sx(p[0]).toFixed(1), cy: sy(p[1]).toFixed(1), r: 3, fill: s.color }));
    if (s.label) legend.push(s);
  }
  for (const v of o.vlines || []) {
    svg.appendChild(el("line", { x1: sx(v.x), x2: sx(v.x), y1: T, y2: H - B, stroke: v.color, "stroke-width": 1.5, "stroke-dasharray": "6 4" }));
    svg.appendChild(el("text", { x: sx(v.x) + 4, y: T + 12, fill: v.color }, v.label));
  }
  for (const h of o.hlines || []) {
    svg.appendChild(el("line", { x1: L, x2: W - R, y1: sy(h.y), y2: sy(h.y), stroke: h.color, "stroke-width": 1, "stroke-dasharray": "3 3" }));
    svg.appendChild(el("text", { x: L + 4, y: sy(h.y) - 4, fill: h.color }, h.label));
  }
  // Legend, bottom right inside the frame.
  const lg = legend.slice(0, 12);
  const lw = Math.min(300, 26 + 6.6 * Math.max(0, ...lg.map((s) => s.label.length)));
  // Where the curves are not: bottom right (a CDF), top left (rising
  // curves), top right (falling ones).
  const pos = o.legend || "br";
  let ly = pos[0] === "t" ? T + 10 : H - B - 8 - 15 * lg.length;
  const lx = pos[1] === "l" ? L + 12 : W - R - lw;
  if (lg.length) svg.appendChild(el("rect", { x: lx - 6, y: ly - 4, width: lw, height: 15 * lg.length + 6, fill: "#ffffff", "fill-opacity": 0.85, stroke: "#ccc" }));
  for (const s of lg) {
    const a = { x1: lx, x2: lx + 18, y1: ly + 6, y2: ly + 6, stroke: s.color, "stroke-width": Math.max(2, s.width || 2) };
    if (s.dash) a["stroke-dasharray"] = s.dash;
    svg.appendChild(el("line", a));
    svg.appendChild(el("text", { x: lx + 24, y: ly + 10, fill: "#222" }, s.label));
    ly += 15;
  }
  return svg;
}

// ---- downloads: SVG, PNG (canvas), CSV (the CLI's) ----
function save(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
function svgText(id) {
  const svg = document.querySelector(`#${id} svg`);
  return svg ? new XMLSerializer().serializeToString(svg) : null;
}
function savePNG(id) {
  const txt = svgText(id);
  if (!txt) return;
  const img = new Image();
  img.onload = () => {
    const cv = document.createElement("canvas");
    cv.width = img.width * 2;
    cv.height = img.height * 2;
    const ctx = cv.getContext("2d");
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    cv.toBlob((b) => save(b, id + ".png"), "image/png");
  };
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(txt);
}
async function saveCSV(path, q, name) {
  const c = new URLSearchParams(q);
  c.set("format", "csv");
  try {
    save(new Blob([await getText(path, c)], { type: "text/csv" }), name);
  } catch (e) {
    setStatus("error", e.message);
  }
}

// ---- wiring ----
function init() {
  // Enter in a field submits the form: stay on the page ("change" redraws).
  $("form").addEventListener("submit", (e) => e.preventDefault());
  readURL();
  buildForm();
  writeURL();
  for (const b of document.querySelectorAll("#tabs button"))
    b.addEventListener("click", () => {
      if (b.dataset.protocol === gk.protocol) return;
      const keep = { N: gk.values.N, level: gk.values.level, deadline: gk.values.deadline, confidence: gk.values.confidence };
      gk.protocol = b.dataset.protocol;
      gk.values = {};
      for (const f of formOf(gk.protocol)) if (f.name) gk.values[f.name] = keep[f.name] !== undefined ? keep[f.name] : f.def;
      buildForm();
      writeURL();
      update();
    });
  for (const b of document.querySelectorAll("[data-svg]"))
    b.addEventListener("click", () => {
      const t = svgText(b.dataset.svg);
      if (t) save(new Blob([t], { type: "image/svg+xml" }), b.dataset.svg + ".svg");
    });
  for (const b of document.querySelectorAll("[data-png]")) b.addEventListener("click", () => savePNG(b.dataset.png));
  $("plan-csv").addEventListener("click", () => saveCSV("/api/plan", planFlags(), "plan.csv"));
  $("ode-csv").addEventListener("click", () => gk.odeQuery && saveCSV("/api/ode", gk.odeQuery, "ode.csv"));
  $("sim-csv").addEventListener("click", () => gk.simQuery && saveCSV("/api/sim", gk.simQuery, "sim.csv"));
  $("fig4-csv").addEventListener("click", () => gk.fig4Query && saveCSV("/api/pdrop", gk.fig4Query, "fig4.csv"));
  $("cancel").addEventListener("click", () => {
    cancelAll();
    generation++;
    lastKey = null;
    setStatus("", "stopped");
  });
  // Leaving the page (even into the back-forward cache) closes its
  // streams, which stops their commands on the server.
  window.addEventListener("pagehide", () => {
    cancelAll();
    generation++;
    lastKey = null;
  });
  // Back from the back-forward cache: the answer was stopped; ask again.
  window.addEventListener("pageshow", (e) => e.persisted && update());
  update();
}
init();
