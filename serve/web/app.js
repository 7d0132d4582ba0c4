// oddsmith workbench: the page of `oddsmith serve`. It talks only to the
// JSON API of docs/workbench-api.md; every number it shows comes from the
// server, which runs the CLI's own code. Plain script, no build step.
(function () {
  'use strict';

  // ---------- constants ----------
  const OI = { blue: '#0072B2', vermillion: '#D55E00', green: '#009E73', purple: '#CC79A7', orange: '#E69F00', sky: '#56B4E9', black: '#000000', yellow: '#F0E442' };
  const SYSTEM_COLOR = { ag: OI.blue, grim: OI.vermillion, bd: OI.green, gm: OI.purple, d20w: OI.orange, rules: OI.sky };
  const SERIES = [OI.blue, OI.vermillion, OI.green, OI.purple, OI.orange, OI.sky, OI.black];
  const DEBOUNCE_MS = 150, CHECK_MS = 250;
  // The dialects an expression can be read in (the CLI's --dialect), and
  // the tools' names.
  const DIALECTS = { oddsmith: 'oddsmith', roll20: 'Roll20', foundry: 'Foundry', 'dice-roller': 'rpg-dice-roller' };
  const EXAMPLES = {
    expr1: { mode: 'expr', text: '4d6kh3', set: {} },
    expr2: { mode: 'expr', text: 'd20 + bonus >= tn', set: { bonus: 5, tn: 15 } },
    toml: {
      mode: 'rules', set: {}, text: [
        '# A house rule: the skill pool keeps its highest d6, and a 6 explodes once.',
        '[[rule]]',
        'id = "house.exploding_six"',
        'summary = "a d6 pool keeps the highest, +1 per extra copy; a 6 explodes once"',
        '',
        '[rule.params]',
        'skill = { default = 2, min = 1, max = 12, doc = "dice in the pool" }',
        'attribute = { default = 2, min = 0, max = 20 }',
        'tn = { default = 5, min = 1, max = 30, doc = "target number" }',
        '',
        '[rule.let]',
        'pool = "(skill)d6!{1}"',
        'copies = "skill - distinct(pool)"',
        'roll = "highest(pool) + copies"',
        '',
        '[rule.vars]',
        'mos = "roll + attribute - tn"',
        '',
        '[rule.events]',
        'success = "mos >= 1"',
        'crit = "copies > 0"',
        ''].join('\n'),
    },
  };

  // ---------- state (everything the URL holds) ----------
  const S = {
    src: 'mechanic', mechanic: 'ag.skill_test', expr: '', dialect: 'oddsmith', rules: '', rule: '',
    set: {}, tab: 'results', view: 'pmf', var: '', pin: null,
    tune: { p1: '', a1: '', b1: '', p2: '', a2: '', b2: '', metric: '', op: '=', target: '0.6' },
    trials: 100000, seed: 1,
  };

  // What the page last received (the test hook reads these).
  const H = {
    mechanics: null, describe: null, check: null, run: null, result: null, sim: null,
    compare: null, sweep: null, solve: null, error: null, exports: [], renders: 0,
  };

  // ---------- small helpers ----------
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    if (attrs) for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'style') e.setAttribute('style', v);
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const k of kids.flat()) if (k != null) e.append(k.nodeType ? k : String(k));
    return e;
  };
  const clear = (e) => { while (e.firstChild) e.removeChild(e.firstChild); return e; };
  const isNum = (v) => typeof v === 'number' && isFinite(v);

  function fmtP(p) {
    if (!isNum(p)) return '–';
    if (p === 0) return '0';
    if (p === 1) return '100%';
    const pc = p * 100;
    if (pc < 0.01) return '<0.01%';
    if (pc > 99.99) return '>99.99%';
    return pc.toFixed(pc < 10 ? 2 : pc < 99.5 ? 1 : 2).replace(/\.?0+$/, (m) => (m.includes('.') ? '' : m)) + '%';
  }
  function fmtPFixed(p) { // for tables: always two decimals of a percent
    if (!isNum(p)) return '–';
    if (p === 0) return '0';
    const pc = p * 100;
    if (pc < 0.005) return '<0.01%';
    return pc.toFixed(2) + '%';
  }
  function fmtNum(v, digits) {
    if (!isNum(v)) return v == null ? '–' : String(v);
    if (Number.isInteger(v)) return String(v);
    const d = digits == null ? 4 : digits;
    const a = Math.abs(v);
    if (a >= 1e6 || (a > 0 && a < 1e-4)) return v.toExponential(2);
    return String(Number(v.toFixed(d)));
  }
  function fmtDelta(v, prob) {
    if (!isNum(v)) return '–';
    if (v === 0) return '0';
    const s = v > 0 ? '+' : '−';
    return s + (prob ? (Math.abs(v) * 100).toFixed(2) + ' pp' : fmtNum(Math.abs(v)));
  }
  function niceStep(x) {
    const p = Math.pow(10, Math.floor(Math.log10(x)));
    const m = x / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function toast(msg) {
    const t = $('toast');
    t.textContent = msg; t.classList.add('show');
    clearTimeout(toast.t); toast.t = setTimeout(() => t.classList.remove('show'), 1600);
  }
  async function copyText(text) {
    try { await navigator.clipboard.writeText(text); return true; } catch (e) { /* fall back */ }
    const ta = el('textarea', { style: 'position:fixed;left:-9999px' });
    ta.value = text; document.body.append(ta); ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove();
    return ok;
  }
  function sysOf(id) { const i = id.indexOf('.'); return i < 0 ? id : id.slice(0, i); }

  // ---------- requests: debounced, stale ones aborted ----------
  const inflight = new Map(); // key -> AbortController
  const timers = new Map();   // key -> timeout id
  class ApiError extends Error { constructor(msg, status) { super(msg); this.status = status; } }

  function later(key, fn, ms) {
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => { timers.delete(key); fn(); }, ms == null ? DEBOUNCE_MS : ms));
    busy();
  }
  function cancel(key) {
    clearTimeout(timers.get(key)); timers.delete(key);
    const ac = inflight.get(key);
    if (ac) { ac.abort(); inflight.delete(key); }
    busy();
  }
  function begin(key) {
    const old = inflight.get(key);
    if (old) old.abort();
    const ac = new AbortController();
    inflight.set(key, ac);
    busy();
    return ac;
  }
  function end(key, ac) { if (inflight.get(key) === ac) inflight.delete(key); busy(); }
  async function errorOf(r) {
    let msg = r.status + ' ' + r.statusText;
    try { const j = await r.json(); if (j && j.error) msg = j.error; } catch (e) { /* not JSON */ }
    return new ApiError(msg, r.status);
  }
  async function api(key, path, body) {
    const ac = begin(key);
    try {
      const r = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST', signal: ac.signal,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!r.ok) throw await errorOf(r);
      return await r.json();
    } finally { end(key, ac); }
  }
  const aborted = (e) => e && e.name === 'AbortError';
  function busy() {
    const n = inflight.size + timers.size;
    const st = $('status');
    if (inflight.has('sim')) { st.className = 'top-status busy'; st.textContent = 'simulating…'; }
    else if (n > 0) { st.className = 'top-status busy'; st.textContent = 'computing…'; }
    else { st.className = 'top-status'; st.textContent = H.lastTiming || ''; }
  }

  // ---------- the configuration the API takes ----------
  function config(s) {
    s = s || S;
    const c = s.src === 'mechanic' ? { mechanic: s.mechanic }
      : s.src === 'expr' ? { expr: s.expr, dialect: s.dialect || 'oddsmith' } : { rules: s.rules, rule: s.rule || '' };
    c.set = Object.assign({}, s.set);
    return c;
  }
  function configLabel(c) {
    let base = c.mechanic || (c.expr != null ? c.expr : (c.rule || 'rule'));
    if (c.expr != null && c.dialect && c.dialect !== 'oddsmith') base += ' (' + (DIALECTS[c.dialect] || c.dialect) + ')';
    const set = Object.entries(c.set || {}).map(([k, v]) => k + '=' + v).join(' ');
    return set ? base + ' ' + set : base;
  }
  function isSimOnly() {
    if (H.describe && H.describe.sim_only != null) return !!H.describe.sim_only;
    if (S.src !== 'mechanic') return false;
    const m = H.mechanics && H.mechanics.mechanics.find((x) => x.id === S.mechanic);
    return !!(m && m.sim_only);
  }
  function engine() { return isSimOnly() ? 'sim' : 'exact'; }

  // ---------- URL state ----------
  function encodeState() {
    const p = new URLSearchParams();
    if (S.src === 'mechanic') p.set('m', S.mechanic);
    else if (S.src === 'expr') { p.set('expr', S.expr); if (S.dialect !== 'oddsmith') p.set('dialect', S.dialect); }
    else { p.set('rules', S.rules); if (S.rule) p.set('rule', S.rule); }
    for (const [k, v] of Object.entries(S.set)) p.set('set.' + k, v);
    if (S.tab !== 'results') p.set('tab', S.tab);
    if (S.view !== 'pmf') p.set('view', S.view);
    if (S.var) p.set('var', S.var);
    if (S.pin) p.set('pin', JSON.stringify(S.pin));
    const t = S.tune;
    if (t.p1) p.set('vary', t.p1 + '=' + t.a1 + '..' + t.b1);
    if (t.p1 && t.p2) p.set('vary2', t.p2 + '=' + t.a2 + '..' + t.b2);
    if (t.metric) p.set('metric', t.metric);
    if (t.op !== '=' || t.target !== '0.6') p.set('target', t.op + t.target);
    if (S.trials !== 100000) p.set('trials', S.trials);
    if (S.seed !== 1) p.set('seed', S.seed);
    return p.toString();
  }
  function saveState() {
    const h = '#' + encodeState();
    if (h !== location.hash) history.replaceState(null, '', h);
  }
  function parseVary(v) {
    const m = /^([^=]+)=(.*?)\.\.(.*)$/.exec(v || '');
    return m ? [m[1], m[2], m[3]] : ['', '', ''];
  }
  function decodeState(hash) {
    const p = new URLSearchParams(hash.replace(/^#/, ''));
    const s = {
      src: 'mechanic', mechanic: 'ag.skill_test', expr: '', dialect: 'oddsmith', rules: '', rule: '', set: {}, tab: 'results', view: 'pmf', var: '', pin: null,
      tune: { p1: '', a1: '', b1: '', p2: '', a2: '', b2: '', metric: '', op: '=', target: '0.6' }, trials: 100000, seed: 1,
    };
    if (p.has('expr')) { s.src = 'expr'; s.expr = p.get('expr'); if (DIALECTS[p.get('dialect')]) s.dialect = p.get('dialect'); }
    else if (p.has('rules')) { s.src = 'rules'; s.rules = p.get('rules'); s.rule = p.get('rule') || ''; }
    else if (p.has('m')) s.mechanic = p.get('m');
    for (const [k, v] of p) if (k.startsWith('set.')) s.set[k.slice(4)] = /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v) ? Number(v) : v;
    if (['results', 'compare', 'tune', 'describe'].includes(p.get('tab'))) s.tab = p.get('tab');
    if (['pmf', 'cdf', 'ccdf'].includes(p.get('view'))) s.view = p.get('view');
    s.var = p.get('var') || '';
    if (p.get('pin')) { try { s.pin = JSON.parse(p.get('pin')); } catch (e) { s.pin = null; } }
    [s.tune.p1, s.tune.a1, s.tune.b1] = parseVary(p.get('vary'));
    [s.tune.p2, s.tune.a2, s.tune.b2] = parseVary(p.get('vary2'));
    s.tune.metric = p.get('metric') || '';
    const tg = /^(>=|<=|=)?(.*)$/.exec(p.get('target') || '');
    if (p.get('target')) { s.tune.op = tg[1] || '='; s.tune.target = tg[2]; }
    if (p.get('trials')) s.trials = Number(p.get('trials')) || 100000;
    if (p.get('seed')) s.seed = Number(p.get('seed')) || 0;
    return s;
  }

  // ---------- Browse: the list of mechanics ----------
  let listButtons = [];
  function renderList() {
    const q = $('search').value.trim().toLowerCase();
    const words = q.split(/\s+/).filter(Boolean);
    const box = $('mech-list');
    const keep = words.length ? 0 : box.scrollTop;
    clear(box);
    listButtons = [];
    if (!H.mechanics) return;
    const systems = H.mechanics.systems.slice();
    const known = new Set(systems.map((s) => s.id));
    for (const m of H.mechanics.mechanics) if (!known.has(m.system)) { known.add(m.system); systems.push({ id: m.system, name: m.system === 'rules' ? 'Rules files' : m.system, doc: '' }); }
    let shown = 0;
    const item = (m) => {
      const current = S.src === 'mechanic' && S.mechanic === m.id;
      const b = el('button', {
        type: 'button', class: 'mech', role: 'listitem', 'data-id': m.id, 'aria-current': current ? 'true' : 'false', title: m.summary,
        onclick: () => selectMechanic(m.id),
      }, el('span', { class: 'id' }, words.length ? el('span', { class: 'sys-dot', style: 'background:' + (SYSTEM_COLOR[m.system] || OI.sky) }) : null,
        el('span', {}, highlight(m.id, words)), m.sim_only ? el('span', { class: 'sim', text: 'sim only' }) : null),
      el('span', { class: 'sum' }, highlight(m.summary, words)));
      box.append(b); listButtons.push(b);
      shown++;
    };
    const sysName = Object.fromEntries(systems.map((s) => [s.id, s.name]));
    if (words.length) {
      // a search: one list, best match first (a word in the id beats one in the summary)
      const scored = [];
      for (const m of H.mechanics.mechanics) {
        const id = m.id.toLowerCase(), sum = m.summary.toLowerCase(), sys = (m.system + ' ' + (sysName[m.system] || '')).toLowerCase();
        const parts = id.split(/[._]/);
        let score = 0, all = true;
        for (const w of words) {
          const sc = (parts.includes(w) ? 6 : 0) + (id.includes(w) ? 3 : 0) + (sum.includes(w) ? 1 : 0) + (sys.includes(w) ? 1 : 0);
          if (!sc) { all = false; break; }
          score += sc;
        }
        if (all) scored.push([score, m]);
      }
      scored.sort((a, b) => b[0] - a[0] || a[1].id.localeCompare(b[1].id));
      if (scored.length) box.append(el('div', { class: 'sys-head' }, 'Best matches', el('span', { class: 'count', text: String(scored.length) })));
      for (const [, m] of scored) item(m);
    } else {
      for (const sys of systems) {
        const ms = H.mechanics.mechanics.filter((m) => m.system === sys.id);
        if (!ms.length) continue;
        box.append(el('div', { class: 'sys-head', title: sys.doc || '' },
          el('span', { class: 'sys-dot', style: 'background:' + (SYSTEM_COLOR[sys.id] || OI.sky) }),
          sys.name, el('span', { class: 'count', text: String(ms.length) })));
        for (const m of ms) item(m);
      }
    }
    if (!shown) box.append(el('p', { class: 'empty-note', style: 'padding: 8px 12px' }, 'No mechanic matches “' + q + '”.'));
    box.scrollTop = keep;
    $('side-count').textContent = shown + ' of ' + H.mechanics.mechanics.length + ' mechanics';
    $('write-rule').classList.toggle('active', S.src !== 'mechanic');
  }
  function highlight(text, words) {
    if (!words.length) return text;
    const low = text.toLowerCase();
    const marks = [];
    for (const w of words) { let i = low.indexOf(w); if (i >= 0) marks.push([i, i + w.length]); }
    if (!marks.length) return text;
    marks.sort((a, b) => a[0] - b[0]);
    const out = []; let at = 0;
    for (const [a, b] of marks) { if (a < at) continue; out.push(text.slice(at, a), el('mark', { text: text.slice(a, b) })); at = b; }
    out.push(text.slice(at));
    return out;
  }
  function scrollListToCurrent() {
    const b = listButtons.find((x) => x.getAttribute('aria-current') === 'true');
    if (b) b.scrollIntoView({ block: 'nearest' });
  }

  // ---------- choosing what to run ----------
  function resetSubjectState() {
    S.set = {}; S.var = ''; H.sim = null; H.result = null; H.describe = null;
    cancel('sim'); showSimIdle();
    S.tune.p1 = ''; S.tune.p2 = ''; S.tune.metric = '';
    H.sweep = null; H.solve = null;
  }
  function selectMechanic(id) {
    if (S.src === 'mechanic' && S.mechanic === id) return;
    S.src = 'mechanic'; S.mechanic = id;
    resetSubjectState();
    showEditor(false);
    renderList();
    loadSubject();
  }
  function openEditor(mode) {
    mode = mode || (S.rules && !S.expr ? 'rules' : 'expr');
    if (S.src === mode) { $('rule-text').focus(); return; }
    resetSubjectState();
    S.src = mode;
    if (mode === 'expr' && !S.expr) { S.expr = EXAMPLES.expr2.text; S.set = Object.assign({}, EXAMPLES.expr2.set); }
    if (mode === 'rules' && !S.rules) S.rules = EXAMPLES.toml.text;
    showEditor(true);
    renderList();
    loadSubject();
    $('rule-text').focus();
  }

  // loadSubject: (check the rule,) describe it, draw its controls, run it.
  let subjectSeq = 0;
  async function loadSubject() {
    const seq = ++subjectSeq;
    saveState();
    renderSubjectHead();
    if (S.src !== 'mechanic') {
      const ok = await checkRule(seq);
      if (!ok || seq !== subjectSeq) return;
    }
    let d;
    try {
      // at the defaults: a rule edit can drop a name the settings still hold
      d = await api('describe', '/api/describe', Object.assign(config(), { set: {} }));
    } catch (e) {
      if (aborted(e)) return;
      showRunError(e.message);
      return;
    }
    if (seq !== subjectSeq) return;
    H.describe = d;
    // drop settings the subject does not have (a rule edit can remove a parameter)
    const names = new Set(d.params.map((p) => p.name));
    for (const o of d.options) { names.add(o.name); if (o.short) names.add(o.short); }
    for (const k of Object.keys(S.set)) if (!names.has(k)) delete S.set[k];
    renderSubjectHead();
    renderControls();
    renderDescribe();
    setupTune();
    scheduleAll(0);
  }

  function renderSubjectHead() {
    const d = H.describe;
    let id, summary, sys;
    if (S.src === 'mechanic') {
      const m = H.mechanics && H.mechanics.mechanics.find((x) => x.id === S.mechanic);
      id = S.mechanic; summary = (d && d.summary) || (m && m.summary) || ''; sys = m ? m.system : sysOf(S.mechanic);
    } else if (S.src === 'expr') {
      id = 'Your one-liner'; summary = S.expr + (S.dialect !== 'oddsmith' ? ' (' + DIALECTS[S.dialect] + ')' : ''); sys = 'rules';
    } else {
      id = (d && d.id) || S.rule || 'Your rule file'; summary = (d && d.summary) || ''; sys = 'rules';
    }
    $('subject-id').textContent = id;
    $('subject-summary').textContent = summary;
    $('subject-dot').style.background = SYSTEM_COLOR[sys] || OI.sky;
    const eng = d ? d.engines : '';
    const badge = $('subject-engines');
    badge.textContent = (eng || '').replace(/\s*\(.*$/s, ''); // the reason, if any, in the tooltip
    badge.title = eng || '';
    badge.className = 'badge' + (/only/.test(eng || '') || isSimOnly() ? ' sim' : '');
    badge.hidden = !eng;
    const doc = d && d.doc && d.doc !== summary ? d.doc : '';
    $('subject-doc').textContent = doc;
    $('subject-doc-wrap').hidden = !doc;
    document.title = (S.src === 'mechanic' ? S.mechanic : id) + ' · oddsmith workbench';
  }

  // ---------- Explore: parameters and options ----------
  function paramValue(p) { return S.set[p.name] != null ? Number(S.set[p.name]) : p.default; }
  function optKey(o) { return o.short || o.name; }
  function optValue(o) { const v = S.set[optKey(o)] != null ? S.set[optKey(o)] : S.set[o.name]; return v != null ? String(v) : o.default; }
  function sliderWindow(p, v) {
    let lo = p.min, hi = p.max;
    const span = hi - lo;
    if (!isNum(lo) || !isNum(hi) || span > 1e5) {
      // an unbounded name (a one-liner's): whole steps in a window around the value
      lo = Math.max(isNum(p.min) ? p.min : -Infinity, Math.floor(v) - 20);
      hi = Math.min(isNum(p.max) ? p.max : Infinity, Math.ceil(v) + 20);
      return { lo, hi, step: 1 };
    }
    if (!p.real && span > 1000) { // a long whole range: a window of 100 around the value
      lo = Math.max(p.min, v - 50); hi = Math.min(p.max, v + 50);
    }
    return { lo, hi, step: p.real ? niceStep(span / 400) : 1 };
  }
  function setParam(name, v, dflt) {
    if (v === dflt || v === String(dflt)) delete S.set[name]; else S.set[name] = v;
    settingsChanged();
  }
  function renderControls() {
    const d = H.describe;
    const box = clear($('params'));
    const ob = clear($('options'));
    if (!d) return;
    if (!d.params.length) box.append(el('p', { class: 'empty-note', text: 'No parameters.' }));
    for (const p of d.params) {
      const v = paramValue(p);
      const w = sliderWindow(p, v);
      const num = el('input', { type: 'number', id: 'param-' + p.name, min: p.min, max: p.max, step: p.real ? 'any' : 1, value: v, 'aria-label': p.name + ' value', 'data-param': p.name });
      const range = el('input', { type: 'range', min: w.lo, max: w.hi, step: w.step, value: v, 'aria-label': p.name, 'data-param': p.name });
      const ends = el('div', { class: 'range-ends' }, el('span', { text: fmtNum(w.lo) }), el('span', { text: fmtNum(w.hi) }));
      const name = el('label', { class: 'ctl-name' + (v !== p.default ? ' changed' : ''), for: 'param-' + p.name, text: p.name, title: 'default ' + p.default + ', range ' + p.min + '..' + p.max });
      const row = el('div', { class: 'ctl', 'data-param': p.name },
        el('div', { class: 'ctl-top' }, name, num),
        range, ends,
        p.doc ? el('div', { class: 'ctl-doc', text: p.doc }) : null);
      const apply = (raw, from) => {
        let x = Number(raw);
        if (raw === '' || !isFinite(x)) return;
        if (!p.real) x = Math.round(x);
        if (x < p.min || x > p.max) { num.setCustomValidity('range ' + p.min + '..' + p.max); num.reportValidity(); return; }
        num.setCustomValidity('');
        if (from !== 'num') num.value = x;
        if (from !== 'range') {
          const w2 = sliderWindow(p, x);
          if (x < Number(range.min) || x > Number(range.max)) { range.min = w2.lo; range.max = w2.hi; ends.firstChild.textContent = fmtNum(w2.lo); ends.lastChild.textContent = fmtNum(w2.hi); }
          range.value = x;
        }
        name.classList.toggle('changed', x !== p.default);
        setParam(p.name, x, p.default);
      };
      range.addEventListener('input', () => apply(range.value, 'range'));
      num.addEventListener('input', () => apply(num.value, 'num'));
      num.addEventListener('change', () => { if (num.value === '') num.value = paramValue(p); });
      box.append(row);
    }
    if (d.options.length) ob.append(el('div', { class: 'opt-head', text: 'Options' }));
    for (const o of d.options) {
      const v = optValue(o);
      const sel = el('select', { id: 'option-' + optKey(o), 'aria-label': optKey(o), 'data-option': optKey(o) }, o.values.map((x) => el('option', { value: x, selected: x === v, text: x + (x === o.default ? '  (default)' : '') })));
      const name = el('label', { class: 'ctl-name' + (v !== o.default ? ' changed' : ''), for: 'option-' + optKey(o), text: optKey(o), title: o.name });
      const doc = el('div', { class: 'ctl-doc' });
      const showDoc = () => { doc.textContent = optionValueDoc(o, sel.value); };
      sel.addEventListener('change', () => {
        delete S.set[o.name];
        name.classList.toggle('changed', sel.value !== o.default);
        showDoc();
        setParam(optKey(o), sel.value, o.default);
      });
      showDoc();
      ob.append(el('div', { class: 'ctl', 'data-option': optKey(o) }, el('div', { class: 'ctl-top' }, name), sel, doc));
    }
  }
  // An option's doc is "value: what it means; value2: …": the part of the chosen value.
  function optionValueParts(o) {
    const parts = {};
    const vals = o.values.slice().sort((a, b) => b.length - a.length);
    let rest = o.doc || '';
    const idx = [];
    for (const v of vals) { const re = new RegExp('(^|;\\s*)' + v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + ':\\s'); const m = re.exec(rest); if (m) idx.push([m.index + m[1].length, v]); }
    idx.sort((a, b) => a[0] - b[0]);
    for (let i = 0; i < idx.length; i++) {
      const [at, v] = idx[i];
      const stop = i + 1 < idx.length ? idx[i + 1][0] : rest.length;
      parts[v] = rest.slice(at + v.length + 1, stop).replace(/;\s*$/, '').trim();
    }
    return parts;
  }
  function optionValueDoc(o, v) { const parts = optionValueParts(o); return parts[v] || (Object.keys(parts).length ? '' : o.doc || ''); }

  function settingsChanged() {
    H.sim = null; cancel('sim'); showSimIdle();
    if (H.solve) { H.solve = null; $('solve-answer').hidden = true; } // its answer was for the old settings
    saveState();
    scheduleAll();
  }
  function scheduleAll(ms) {
    later('run', runExact, ms);
    if (S.pin) later('compare', runCompare, ms);
    if (S.tab === 'tune') later('sweep', runSweep, ms);
  }

  // ---------- Explore: running ----------
  async function runExact() {
    if (!H.describe) return;
    if (isSimOnly()) { runSim(true); return; }
    const t0 = performance.now();
    let res;
    try {
      res = await api('run', '/api/run', Object.assign(config(), { engine: 'exact' }));
    } catch (e) {
      if (aborted(e)) return;
      showRunError(e.message);
      return;
    }
    H.lastTiming = 'exact in ' + Math.round(performance.now() - t0) + ' ms';
    showRunError('');
    H.run = res; H.result = res.result;
    renderResult();
    busy();
  }
  function showRunError(msg) {
    H.error = msg || null;
    const b = $('run-error');
    b.textContent = msg ? '⚠ ' + msg : '';
    b.hidden = !msg;
    document.querySelector('.views').classList.toggle('stale', !!msg);
  }

  // Order of outputs: as describe lists them, the primary distribution first.
  function outputsOf(kind) {
    const d = H.describe;
    const out = d ? d.outputs.filter((o) => o.kind === kind) : [];
    out.sort((a, b) => (b.primary ? 1 : 0) - (a.primary ? 1 : 0));
    return out;
  }
  function distNames(r) {
    const have = Object.keys((r && r.distributions) || {});
    const order = outputsOf('distribution').map((o) => o.name).filter((n) => have.includes(n));
    for (const n of have) if (!order.includes(n)) order.push(n);
    return order;
  }
  function currentVar(r) {
    const names = distNames(r);
    return names.includes(S.var) ? S.var : names[0] || '';
  }

  function renderResult() {
    const r = H.result;
    if (!r) return;
    H.renders++;
    const names = distNames(r);
    const v = currentVar(r);
    // variable chips
    const chips = clear($('var-chips'));
    const outs = Object.fromEntries(outputsOf('distribution').map((o) => [o.name, o]));
    for (const n of names) {
      const o = outs[n];
      chips.append(el('button', {
        type: 'button', class: 'chip', 'aria-pressed': n === v ? 'true' : 'false', title: o ? o.doc : '',
        onclick: () => { S.var = n === names[0] ? '' : n; saveState(); renderResult(); },
      }, n, o && o.unit ? el('span', { class: 'unit', text: ' [' + o.unit + ']' }) : null));
    }
    document.querySelector('.chart-card').hidden = !names.length;
    drawMain(r, v);
    renderEvents(r);
    renderBands(r);
    renderStats(r, v);
    renderProcess(r);
    const cmd = (H.run && H.run.command) || '';
    $('cli-command').textContent = cmd;
    $('fingerprint').textContent = (H.run && H.run.fingerprint) || r.fingerprint || '';
  }

  // The points of a distribution, with the integer gaps filled with zeros so
  // the bars sit at their x.
  function series(points) {
    const xs = [], ps = [];
    if (!points || !points.length) return { xs, ps };
    const allInt = points.every((q) => Number.isInteger(q[0]));
    const span = points[points.length - 1][0] - points[0][0];
    if (allInt && span <= 4000) {
      const m = new Map(points.map((q) => [q[0], q[1]]));
      for (let x = points[0][0]; x <= points[points.length - 1][0]; x++) { xs.push(x); ps.push(m.get(x) || 0); }
    } else for (const q of points) { xs.push(q[0]); ps.push(q[1]); }
    return { xs, ps };
  }
  function cumulative(ps, view) {
    if (view === 'cdf') { let c = 0; return ps.map((p) => Math.min(1, (c += p))); }
    if (view === 'ccdf') { const out = new Array(ps.length); let c = 0; for (let i = ps.length - 1; i >= 0; i--) { c += ps[i]; out[i] = Math.min(1, c); } return out; }
    return ps.slice();
  }
  const VIEW_LABEL = { pmf: '=', cdf: '≤', ccdf: '≥' };

  // 95% Wilson interval of a simulated proportion.
  function wilson(p, n) {
    if (!n) return [p, p];
    const z = 1.959963984540054, z2 = z * z;
    const den = 1 + z2 / n, c = (p + z2 / (2 * n)) / den, h = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / den;
    return [Math.max(0, c - h), Math.min(1, c + h)];
  }

  // ---------- charts (uPlot) ----------
  const charts = {};
  function axisStyle(extra) {
    return Object.assign({ stroke: '#4a5568', grid: { stroke: '#eef1f5', width: 1 }, ticks: { stroke: '#d5dbe3', width: 1, size: 4 }, font: '12px system-ui, sans-serif', labelFont: '600 12px system-ui, sans-serif' }, extra || {});
  }
  // percent labels with as many decimals as the ticks need (2.5%, not 3%)
  const pctAxis = (u, splits) => {
    let d = 0;
    while (d < 4 && !splits.every((v) => v == null || Math.abs(Number((v * 100).toFixed(d)) - v * 100) < 1e-9)) d++;
    return splits.map((v) => (v == null ? '' : (v * 100).toFixed(d) + '%'));
  };
  const intIncrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 1e5, 2e5, 5e5, 1e6];
  function chartWidth(node) { return Math.max(320, node.clientWidth || node.parentNode.clientWidth - 28); }

  // makeChart draws (or redraws) the chart in node with uPlot options from
  // spec: {xs, series:[{label, ys, color, kind:'bars'|'line'|'step'|'points', err:[[lo,hi]...], align}], yProb, xLabel, yLabel, onHover}
  function makeChart(key, node, spec) {
    const old = charts[key];
    if (old) { old.u.destroy(); delete charts[key]; }
    clear(node);
    if (!spec.xs.length) { node.append(el('p', { class: 'empty-note', text: spec.empty || 'Nothing to draw.' })); return; }
    const n = spec.series.length;
    const bars = spec.series.filter((s) => s.kind === 'bars').length;
    let bi = 0;
    const ser = [{ label: spec.xLabel || 'x' }];
    for (const s of spec.series) {
      const o = { label: s.label, stroke: s.color, width: 2, points: { show: false }, spanGaps: false };
      if (s.kind === 'bars') {
        const size = bars > 1 ? 0.42 : 0.72;
        const align = bars > 1 ? (bi++ === 0 ? -1 : 1) : 0;
        o.paths = uPlot.paths.bars({ size: [size, 64, 1], align, gap: bars > 1 ? 0 : 1 });
        o.fill = s.color + (s.fillAlpha || 'd9'); o.width = 0;
      } else if (s.kind === 'step') {
        o.paths = uPlot.paths.stepped({ align: 1 }); o.width = 2.2;
      } else if (s.kind === 'points') {
        o.paths = () => null; o.points = { show: true, size: 7, width: 1.5, stroke: s.color, fill: '#fff' };
      } else {
        o.width = 2; o.points = { show: true, size: 6, stroke: s.color, fill: s.color };
      }
      ser.push(o);
    }
    const errs = spec.series.map((s, i) => (s.err ? [i + 1, s.err, s.color] : null)).filter(Boolean);
    const marks = spec.marks || [];
    const opts = {
      width: chartWidth(node), height: spec.height || 300,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 8 }, y: false },
      scales: {
        x: { time: false, range: (u, lo, hi) => (spec.categorical || bars) ? [lo - 0.6, hi + 0.6] : lo === hi ? [lo - 1, hi + 1] : [lo, hi] },
        y: { range: spec.yProb ? [0, 1] : (u, lo, hi) => { const top = Math.max(hi, ...errs.flatMap((e) => e[1].map((q) => q[1]))); return [Math.min(0, lo), top > 0 ? top * 1.08 : 1]; } },
      },
      axes: [
        axisStyle({ label: spec.xLabel || '', incrs: spec.xReal ? undefined : intIncrs, values: spec.xValues || ((u, sp) => sp.map((v) => fmtNum(v))) }),
        axisStyle({ label: spec.yLabel || '', size: 58, values: spec.yPct === false ? undefined : pctAxis }),
      ],
      series: ser,
      hooks: {
        setCursor: [(u) => { if (spec.onHover) spec.onHover(u.cursor.idx); }],
        draw: [(u) => {
          const ctx = u.ctx, dpr = devicePixelRatio || 1;
          ctx.save();
          for (const [si, err, color] of errs) {
            if (!u.series[si].show) continue;
            ctx.strokeStyle = color; ctx.lineWidth = 1.5 * dpr;
            const data = u.data[0];
            for (let i = 0; i < data.length; i++) {
              if (!err[i]) continue;
              const x = u.valToPos(data[i], 'x', true), y0 = u.valToPos(err[i][0], 'y', true), y1 = u.valToPos(err[i][1], 'y', true);
              ctx.beginPath(); ctx.moveTo(x, y0); ctx.lineTo(x, y1);
              ctx.moveTo(x - 3 * dpr, y0); ctx.lineTo(x + 3 * dpr, y0); ctx.moveTo(x - 3 * dpr, y1); ctx.lineTo(x + 3 * dpr, y1);
              ctx.stroke();
            }
          }
          for (const m of marks) { // dotted verticals (the current setting) and horizontals (a target)
            ctx.strokeStyle = m.color || '#1d2430'; ctx.lineWidth = 1.2 * dpr; ctx.setLineDash([4 * dpr, 4 * dpr]);
            ctx.beginPath();
            if (m.x != null) { const x = u.valToPos(m.x, 'x', true); ctx.moveTo(x, u.bbox.top); ctx.lineTo(x, u.bbox.top + u.bbox.height); }
            if (m.y != null) { const y = u.valToPos(m.y, 'y', true); ctx.moveTo(u.bbox.left, y); ctx.lineTo(u.bbox.left + u.bbox.width, y); }
            ctx.stroke();
          }
          ctx.restore();
        }],
      },
    };
    const data = [spec.xs, ...spec.series.map((s) => s.ys)];
    const u = new uPlot(opts, data, node);
    charts[key] = { u, spec, data };
    u.root.addEventListener('mouseleave', () => spec.onHover && spec.onHover(null));
  }
  // Keep charts as wide as their cards.
  const ro = new ResizeObserver(() => {
    for (const [key, c] of Object.entries(charts)) {
      const node = c.u.root.parentNode;
      const w = chartWidth(node);
      if (Math.abs(w - c.u.width) > 2) c.u.setSize({ width: w, height: c.u.height });
      void key;
    }
  });
  ro.observe($('main'));

  function exactFractions(r, v) {
    const m = new Map();
    const ex = r.exact && r.exact.distributions && r.exact.distributions[v];
    if (ex) for (const [x, f] of ex) m.set(x, f);
    return m;
  }

  function drawMain(r, v) {
    const pts = (r.distributions || {})[v] || [];
    const { xs, ps } = series(pts);
    const view = S.view;
    const ys = cumulative(ps, view);
    const out = outputsOf('distribution').find((o) => o.name === v);
    const unit = out && out.unit ? ' [' + out.unit + ']' : '';
    const frac = exactFractions(r, v);
    const sim = H.sim && H.sim.distributions && H.sim.distributions[v] ? H.sim : null;
    const simOnlyNow = r.engine === 'sim';
    const ser = [{ label: simOnlyNow ? 'simulated' : 'exact', ys, color: simOnlyNow ? OI.vermillion : OI.blue, kind: 'bars' }];
    let sys = null, serr = null;
    if (sim && !simOnlyNow) {
      const m = new Map(sim.distributions[v].map((q) => [q[0], q[1]]));
      const sp = xs.map((x) => m.get(x) || 0);
      sys = cumulative(sp, view);
      serr = sys.map((p) => wilson(p, sim.trials));
      ser.push({ label: 'simulated', ys: sys, color: OI.vermillion, kind: 'points', err: serr });
    }
    const cdf = cumulative(ps, 'cdf'), ccdf = cumulative(ps, 'ccdf');
    const und = r.undefined && r.undefined[v];
    const stats = r.stats && r.stats[v];
    const idle = () => {
      const bits = [];
      if (stats) bits.push(el('span', {}, 'mean ', el('b', { text: fmtNum(stats.mean, 3) }), ' · sd ', el('b', { text: fmtNum(stats.sd, 3) }), ' · median ', el('b', { text: fmtNum(stats.p50) })));
      if (und) bits.push(el('span', { class: 'muted' }, ' · ' + und.label + ': ' + fmtP(und.p) + ' (not drawn)'));
      bits.push(el('span', { class: 'muted', text: '  — hover the chart for P(= x), P(≤ x), P(≥ x)' }));
      return bits;
    };
    const readout = $('readout');
    const hover = (i) => {
      clear(readout);
      if (i == null || i < 0 || i >= xs.length) { readout.append(...idle()); return; }
      const x = xs[i];
      const f = frac.get(x);
      readout.append(
        el('b', { text: v + ' = ' + fmtNum(x) }), '   ',
        el('span', {}, 'P(= ' + fmtNum(x) + ') ', el('b', { text: fmtP(ps[i]) }), f ? el('span', { class: 'frac', text: ' ' + f }) : null), '   ',
        el('span', {}, 'P(≤ ' + fmtNum(x) + ') ', el('b', { text: fmtP(cdf[i]) })), '   ',
        el('span', {}, 'P(≥ ' + fmtNum(x) + ') ', el('b', { text: fmtP(ccdf[i]) })),
        sys ? el('span', { style: 'color:' + OI.vermillion }, '   simulated P(' + VIEW_LABEL[view] + ' ' + fmtNum(x) + ') ' + fmtP(sys[i]) + ' [' + fmtP(serr[i][0]) + ', ' + fmtP(serr[i][1]) + ']') : null);
    };
    makeChart('main', $('chart'), {
      xs, series: ser, yProb: view !== 'pmf', xLabel: v + unit, yLabel: 'P(' + VIEW_LABEL[view] + ' x)', onHover: hover,
      xReal: !pts.every((q) => Number.isInteger(q[0])),
      empty: 'This output has no values at these settings.',
    });
    hover(null);
    const lg = clear($('chart-legend'));
    lg.append(el('span', { style: '--c:' + ser[0].color, text: ser[0].label + ' P(' + VIEW_LABEL[view] + ' x)' }));
    if (sys) lg.append(el('span', { class: 'dot', style: '--c:' + OI.vermillion, text: 'simulated, ' + sim.trials.toLocaleString('en') + ' trials (95% interval)' }));
  }

  function renderEvents(r) {
    const box = clear($('events'));
    const names = Object.keys(r.events || {});
    const order = outputsOf('event').map((o) => o.name).filter((n) => names.includes(n));
    for (const n of names) if (!order.includes(n)) order.push(n);
    $('events-card').hidden = !order.length;
    const docs = Object.fromEntries(outputsOf('event').map((o) => [o.name, o.doc]));
    const ex = (r.exact && r.exact.events) || {};
    const sim = H.sim && r.engine !== 'sim' ? H.sim : null;
    for (const n of order) box.append(barRow(n, r.events[n], ex[n], docs[n], sim && sim.events ? sim.events[n] : null, sim && sim.ci95 ? sim.ci95[n] : null, OI.blue));
  }
  function barRow(name, p, frac, doc, sp, ci, color) {
    const track = el('div', { class: 'track' }, el('div', { class: 'fill' + (p ? '' : ' zero'), style: 'width:' + (Math.max(0, Math.min(1, p || 0)) * 100) + '%;background:' + color }));
    if (isNum(sp)) {
      if (ci) track.append(el('div', { class: 'simci', style: 'left:' + ci[0] * 100 + '%;width:' + Math.max(0.2, (ci[1] - ci[0]) * 100) + '%' }));
      track.append(el('div', { class: 'simmark', style: 'left:' + sp * 100 + '%', title: 'simulated ' + fmtP(sp) }));
    }
    return el('div', { class: 'row', title: doc || '' },
      el('span', { class: 'name', text: name }), track,
      el('span', { class: 'val' }, fmtP(p), frac && frac !== '0' && frac !== '1' ? el('span', { class: 'frac', text: frac }) : null,
        isNum(sp) ? el('span', { class: 'sv', text: 'sim ' + fmtP(sp) }) : null));
  }
  function renderBands(r) {
    const box = clear($('bands'));
    const bands = r.bands || {};
    const names = Object.keys(bands);
    $('bands-card').hidden = !names.length;
    const sim = H.sim && r.engine !== 'sim' && H.sim.bands ? H.sim.bands : null;
    names.forEach((n, k) => {
      const b = bands[n];
      box.append(el('div', { class: 'group', text: n }));
      // a band of many categories: those no outcome reaches (exactly or simulated) are left out, and counted
      const sb = sim && sim[n];
      const many = b.labels.length > 8;
      let hidden = 0;
      b.labels.forEach((lab, i) => {
        if (many && !b.p[i] && !(sb && sb.p[i])) { hidden++; return; }
        box.append(barRow(lab, b.p[i], b.exact ? b.exact[i] : null, '', sb ? sb.p[i] : null, sb && sb.ci95 ? sb.ci95[i] : null, SERIES[(k + 2) % SERIES.length]));
      });
      if (hidden) box.append(el('div', { class: 'empty-note', text: hidden + ' of ' + b.labels.length + ' categories have P = 0 (not shown)' }));
    });
    if (!names.length && !Object.keys(r.events || {}).length) $('events-card').hidden = true;
  }
  function renderStats(r, v) {
    const t = clear($('stats'));
    const cols = ['mean', 'sd', 'min', 'p5', 'p25', 'p50', 'p75', 'p95', 'max'];
    t.append(el('thead', {}, el('tr', {}, el('th', { text: 'variable' }), cols.map((c) => el('th', { text: c === 'p50' ? 'median' : c })))));
    const tb = el('tbody');
    const sim = H.sim && r.engine !== 'sim' ? H.sim.stats : null;
    for (const n of distNames(r)) {
      const s = (r.stats || {})[n];
      if (!s) continue;
      tb.append(el('tr', {}, el('td', { class: n === v ? 'primary' : '', text: n }), cols.map((c) => el('td', { text: fmtNum(s[c], 3) }))));
      if (sim && sim[n]) tb.append(el('tr', {}, el('td', { class: 'sv', text: '  simulated' }), cols.map((c) => el('td', { class: 'sv', text: fmtNum(sim[n][c], 3) }))));
    }
    t.append(tb);
  }
  function renderProcess(r) {
    const pr = r.process;
    $('process-card').hidden = !pr;
    if (!pr) return;
    const unit = pr.time_unit || 'step';
    const surv = pr.survival || [];
    const xs = surv.map((_, i) => i);
    const note = [];
    if (pr.horizon != null) note.push('horizon ' + pr.horizon + ' ' + unit + (pr.horizon === 1 ? '' : 's'));
    $('process-note').textContent = note.join(' · ');
    const rd = $('surv-readout');
    const hover = (i) => {
      clear(rd);
      if (i == null || i < 0) { rd.append('S(t): the chance the process is still running after t ' + unit + 's'); return; }
      rd.append(el('b', { text: 't = ' + i + ' ' + unit + (i === 1 ? '' : 's') }), '   S(t) ', el('b', { text: fmtP(surv[i]) }),
        i > 0 ? el('span', {}, '   ended at t: ', el('b', { text: fmtP(surv[i - 1] - surv[i]) })) : null);
    };
    makeChart('surv', $('surv-chart'), { xs, series: [{ label: 'S(t)', ys: surv, color: OI.green, kind: 'step' }], yProb: true, xLabel: 'time t [' + unit + ']', yLabel: 'S(t) = P(T > t)', height: 250, onHover: hover });
    hover(null);
    const ab = clear($('absorb'));
    const dl = el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'ends in' }), el('th', { text: 'within horizon' }), pr.unbounded ? el('th', { text: 'no horizon' }) : null)));
    const tb = el('tbody');
    const rows = (pr.absorbing_states || []).map((s, i) => [s, pr.absorbed ? pr.absorbed[i] : 0, pr.absorbed_unbounded ? pr.absorbed_unbounded[i] : null])
      .filter((q) => q[1] > 0 || (q[2] || 0) > 0).sort((a, b) => (b[2] || b[1]) - (a[2] || a[1]));
    for (const [s, p, pu] of rows.slice(0, 6)) tb.append(el('tr', {}, el('td', { text: s }), el('td', { text: fmtP(p) }), pr.unbounded ? el('td', { text: fmtP(pu) }) : null));
    if (rows.length > 6) tb.append(el('tr', {}, el('td', { class: 'muted', text: '… ' + (rows.length - 6) + ' more states' }), el('td'), pr.unbounded ? el('td') : null));
    if (isNum(pr.not_absorbed)) tb.append(el('tr', {}, el('td', { text: 'still running at the horizon' }), el('td', { text: fmtP(pr.not_absorbed) }), pr.unbounded ? el('td', { text: '0' }) : null));
    dl.append(tb);
    ab.append(dl);
    if (pr.unbounded && isNum(pr.mean_time_unbounded)) ab.append(el('p', { class: 'muted' }, 'Mean time to absorption with no horizon: ', el('b', { text: fmtNum(pr.mean_time_unbounded, 3) + ' ' + unit + 's' })));
  }

  // ---------- Simulate (NDJSON stream) ----------
  function showSimIdle() {
    $('sim-progress').hidden = true; $('sim-cancel').hidden = true; $('sim-run').disabled = false;
    $('agreement').hidden = true; $('sim-msg').textContent = '';
  }
  async function runSim(auto) {
    const trials = auto ? Math.min(S.trials, 100000) : S.trials;
    const body = Object.assign(config(), { engine: 'sim', trials, seed: S.seed });
    const ac = begin('sim');
    $('sim-run').disabled = true; $('sim-cancel').hidden = false; $('sim-progress').hidden = false;
    $('sim-bar').style.width = '0%'; $('agreement').hidden = true;
    $('sim-msg').textContent = 'simulating ' + trials.toLocaleString('en') + ' trials…';
    H.simState = 'running';
    const t0 = performance.now();
    let final = null;
    try {
      const r = await fetch('/api/run', { method: 'POST', signal: ac.signal, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (!r.ok) throw await errorOf(r);
      const reader = r.body.getReader();
      const dec = new TextDecoder();
      let buf = '';
      const handle = (line) => {
        if (!line.trim()) return;
        const m = JSON.parse(line);
        if (m.error) throw new ApiError(m.error, 200);
        if (isNum(m.progress)) { $('sim-bar').style.width = (m.progress * 100).toFixed(1) + '%'; H.simProgress = m.progress; }
        if (m.result) final = m;
      };
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n')) >= 0) { handle(buf.slice(0, i)); buf = buf.slice(i + 1); }
      }
      handle(buf);
      if (!final) throw new ApiError('the simulation ended without a result', 500);
    } catch (e) {
      end('sim', ac);
      $('sim-progress').hidden = true; $('sim-cancel').hidden = true; $('sim-run').disabled = false;
      if (aborted(e)) { H.simState = 'cancelled'; $('sim-msg').textContent = 'cancelled'; return; }
      H.simState = 'error';
      $('sim-msg').textContent = '';
      if (auto) showRunError(e.message); else { const a = $('agreement'); a.className = 'agreement bad'; a.textContent = '⚠ ' + e.message; a.hidden = false; }
      return;
    }
    end('sim', ac);
    H.simState = 'done';
    $('sim-bar').style.width = '100%';
    $('sim-progress').hidden = true; $('sim-cancel').hidden = true; $('sim-run').disabled = false;
    const secs = (performance.now() - t0) / 1000;
    $('sim-msg').textContent = final.result.trials.toLocaleString('en') + ' trials, seed ' + final.result.seed + ', ' + secs.toFixed(secs < 1 ? 2 : 1) + ' s';
    H.simRun = final;
    if (auto || isSimOnly()) {
      H.run = final; H.result = final.result; H.sim = null; showRunError('');
    } else {
      H.sim = final.result;
      const ag = final.agreement;
      const a = $('agreement');
      if (ag) {
        a.className = 'agreement' + (ag.ok === false ? ' bad' : '');
        clear(a).append(el('span', { class: 'mark', text: ag.ok === false ? '✗' : '✓' }), ag.text || '');
        a.hidden = false;
      }
    }
    renderResult();
    if (!auto) $('cli-command').textContent = final.command || $('cli-command').textContent;
  }
  function cancelSim() { if (inflight.has('sim')) cancel('sim'); }

  // ---------- Compare ----------
  function pin() {
    S.pin = config();
    H.compare = null;
    renderPinInfo();
    saveState();
    later('compare', runCompare, 0);
    toast('Pinned as A — now change anything');
  }
  function unpin() { S.pin = null; H.compare = null; cancel('compare'); renderPinInfo(); saveState(); }
  function swap() {
    if (!S.pin) return;
    const b = config();
    const a = S.pin;
    S.pin = b;
    applyConfig(a);
  }
  // applyConfig makes c the current view (keeping the pin, tab and view).
  function applyConfig(c) {
    resetSubjectState();
    if (c.mechanic) { S.src = 'mechanic'; S.mechanic = c.mechanic; }
    else if (c.expr != null) { S.src = 'expr'; S.expr = c.expr; S.dialect = DIALECTS[c.dialect] ? c.dialect : 'oddsmith'; }
    else { S.src = 'rules'; S.rules = c.rules; S.rule = c.rule || ''; }
    S.set = Object.assign({}, c.set || {});
    showEditor(S.src !== 'mechanic');
    renderList();
    renderPinInfo();
    loadSubject();
  }
  function renderPinInfo() {
    const info = $('pin-info');
    clear(info);
    if (S.pin) info.append('A = ', el('b', { text: configLabel(S.pin) }), ' ', el('button', { type: 'button', class: 'linkish', text: 'compare', onclick: () => setTab('compare') }), ' · ', el('button', { type: 'button', class: 'linkish', text: 'unpin', onclick: unpin }));
    $('pin').textContent = S.pin ? 'Pin again as A' : 'Pin as A';
    $('compare-empty').hidden = !!S.pin;
    $('compare-body').hidden = !S.pin;
    $('compare-note').textContent = S.pin ? 'A' : '';
    if (S.pin) { $('cmp-a').textContent = configLabel(S.pin); $('cmp-b').textContent = configLabel(config()); }
  }
  async function runCompare() {
    if (!S.pin || !H.describe) return;
    $('cmp-b').textContent = configLabel(config());
    const simOnly = isSimOnly() || (S.pin.mechanic && H.mechanics && (H.mechanics.mechanics.find((m) => m.id === S.pin.mechanic) || {}).sim_only);
    const body = { a: S.pin, b: config(), engine: simOnly ? 'sim' : 'exact' };
    if (simOnly) { body.trials = Math.min(S.trials, 100000); body.seed = S.seed; }
    let res;
    try { res = await api('compare', '/api/compare', body); } catch (e) {
      if (aborted(e)) return;
      const b = $('cmp-error'); b.textContent = '⚠ ' + e.message; b.hidden = false;
      H.compare = null; $('cmp-summary').textContent = ''; clear($('cmp-table')); clear($('cmp-chips'));
      makeChart('cmp', $('cmp-chart'), { xs: [], series: [], empty: 'Nothing to compare.' });
      return;
    }
    $('cmp-error').hidden = true;
    H.compare = res;
    renderCompare();
  }
  function renderCompare() {
    const res = H.compare;
    if (!res) return;
    const c = res.result;
    $('cmp-summary').textContent = c.summary || '';
    const dists = (c.distributions || []).filter((d) => d.pmf && d.pmf.length);
    const chips = clear($('cmp-chips'));
    let cur = dists.find((d) => d.output === H.cmpVar) || dists[0];
    for (const d of dists) chips.append(el('button', { type: 'button', class: 'chip', 'aria-pressed': d === cur ? 'true' : 'false', text: d.output, onclick: () => { H.cmpVar = d.output; renderCompare(); } }));
    if (cur) {
      const pts = cur.pmf;
      const allInt = pts.every((q) => Number.isInteger(q[0]));
      const xs = [], pa = [], pb = [];
      const m = new Map(pts.map((q) => [q[0], q]));
      if (allInt && pts.length && pts[pts.length - 1][0] - pts[0][0] <= 4000) {
        for (let x = pts[0][0]; x <= pts[pts.length - 1][0]; x++) { const q = m.get(x); xs.push(x); pa.push(q ? q[1] : 0); pb.push(q ? q[2] : 0); }
      } else for (const q of pts) { xs.push(q[0]); pa.push(q[1]); pb.push(q[2]); }
      const view = S.view;
      const ya = cumulative(pa, view), yb = cumulative(pb, view);
      $('cmp-metrics').textContent = [isNum(cur.tvd) ? 'TVD ' + fmtNum(cur.tvd, 3) : '', isNum(cur.ks) ? 'KS ' + fmtNum(cur.ks, 3) : '', cur.swingier ? 'swingier: ' + cur.swingier : ''].filter(Boolean).join(' · ');
      const rd = $('cmp-readout');
      const hover = (i) => {
        clear(rd);
        if (i == null || i < 0) { rd.append(el('span', { class: 'muted', text: 'A blue, B vermillion — hover for the values. P(' + VIEW_LABEL[view] + ' x); switch the view on the Results tab.' })); return; }
        rd.append(el('b', { text: cur.output + ' = ' + fmtNum(xs[i]) }), '   A ', el('b', { text: fmtP(ya[i]) }), '   B ', el('b', { text: fmtP(yb[i]) }), '   Δ ', el('b', { text: fmtDelta(yb[i] - ya[i], true) }));
      };
      makeChart('cmp', $('cmp-chart'), {
        xs, series: [{ label: 'A', ys: ya, color: OI.blue, kind: 'bars' }, { label: 'B', ys: yb, color: OI.vermillion, kind: 'bars' }],
        yProb: view !== 'pmf', xLabel: cur.output, yLabel: 'P(' + VIEW_LABEL[view] + ' x)', onHover: hover,
      });
      hover(null);
    } else {
      makeChart('cmp', $('cmp-chart'), { xs: [], series: [], empty: 'No shared distribution to draw; the table lists the differences.' });
      $('cmp-metrics').textContent = '';
    }
    const t = clear($('cmp-table'));
    const all = $('cmp-all').checked;
    t.append(el('thead', {}, el('tr', {}, el('th', { text: 'output' }), el('th', { text: 'kind' }), el('th', { text: 'A' }), el('th', { text: 'B' }), el('th', { text: 'Δ = B − A' }))));
    const tb = el('tbody');
    let hidden = 0;
    for (const r of c.rows || []) {
      if (!all && r.delta === 0) { hidden++; continue; }
      const prob = r.quantity === 'P';
      const name = r.output + (r.label ? ' · ' + r.label : '') + (prob ? '' : ' ' + r.quantity);
      const f = (x) => (prob ? fmtPFixed(x) : fmtNum(x, 3));
      tb.append(el('tr', { class: r.significant === false && r.delta !== 0 ? 'ns' : '' },
        el('td', { text: name }), el('td', { class: 'kind', text: r.kind }), el('td', { text: f(r.a) }), el('td', { text: f(r.b) }),
        el('td', { class: r.delta > 0 ? 'pos' : r.delta < 0 ? 'neg' : '', text: fmtDelta(r.delta, prob) })));
    }
    if (hidden) tb.append(el('tr', {}, el('td', { class: 'muted note', colspan: 5, text: hidden + ' unchanged rows hidden' })));
    for (const side of ['a', 'b']) {
      const only = c['only_' + side];
      if (only && only.length) tb.append(el('tr', {}, el('td', { class: 'muted note', colspan: 5, text: 'only in ' + side.toUpperCase() + ': ' + only.map((o) => (o.output || o.name || o)).join(', ') })));
    }
    t.append(tb);
    H.renders++;
  }

  // ---------- Tune: sweep and solve ----------
  function axes() {
    const d = H.describe;
    if (!d) return [];
    const out = d.params.map((p) => ({ key: p.name, label: p.name, p }));
    for (const o of d.options) out.push({ key: optKey(o), label: optKey(o) + ' (option)', o });
    return out;
  }
  // A parameter's doc may suggest a sweep range: "(sweep 0–8)", "sweep −6…+6".
  function sweepHint(p) {
    const m = /sweep\s+([−-]?\d+(?:\.\d+)?)\s*(?:–|—|-|…|\.\.\.?)\s*\+?([−-]?\d+(?:\.\d+)?)/.exec(p.doc || '');
    if (!m) return null;
    const a = Number(m[1].replace('−', '-')), b = Number(m[2].replace('−', '-'));
    return isFinite(a) && isFinite(b) && b > a && a >= p.min && b <= p.max ? [a, b] : null;
  }
  function defaultRange(p) {
    const hint = sweepHint(p);
    if (hint) return hint;
    const v = paramValue(p);
    if (isNum(p.min) && isNum(p.max) && p.max - p.min <= 30) return [p.min, p.max];
    let lo = Math.max(isNum(p.min) ? p.min : -Infinity, v - 10), hi = Math.min(isNum(p.max) ? p.max : Infinity, v + 10);
    if (hi - lo < 20) { if (lo === p.min) hi = Math.min(p.max, lo + 20); else lo = Math.max(p.min, hi - 20); }
    return [lo, hi];
  }
  function metrics() {
    const out = [];
    for (const o of outputsOf('event')) out.push(['event:' + o.name, 'P(' + o.name + ')']);
    for (const o of outputsOf('distribution')) out.push(['mean:' + o.name, 'mean of ' + o.name], ['sd:' + o.name, 'sd of ' + o.name]);
    const bands = (H.result && H.result.bands) || {};
    for (const [n, b] of Object.entries(bands)) for (const lab of b.labels) out.push(['band:' + n + ':' + lab, 'P(' + n + ' = ' + lab + ')']);
    return out;
  }
  function setupTune() {
    const ax = axes();
    const t = S.tune;
    const keys = ax.map((a) => a.key);
    if (!keys.includes(t.p1)) {
      const pick = ax.find((a) => a.key === 'tn') || ax.find((a) => a.p) || ax[0];
      t.p1 = pick ? pick.key : '';
      t.a1 = ''; t.b1 = '';
    }
    if (t.p2 && (!keys.includes(t.p2) || t.p2 === t.p1)) t.p2 = '';
    const fill = (sel, val, none) => {
      clear(sel);
      if (none) sel.append(el('option', { value: '', text: '— nothing (a line) —' }));
      for (const a of ax) sel.append(el('option', { value: a.key, text: a.label, selected: a.key === val }));
      sel.value = val;
    };
    fill($('tune-p1'), t.p1, false);
    fill($('tune-p2'), t.p2, true);
    const ms = metrics();
    if (!ms.some((m) => m[0] === t.metric)) t.metric = ms.length ? ms[0][0] : '';
    const msel = clear($('tune-metric'));
    for (const [k, lab] of ms) msel.append(el('option', { value: k, text: lab, selected: k === t.metric }));
    msel.value = t.metric;
    fillRanges();
  }
  function fillRanges() {
    const ax = axes();
    const t = S.tune;
    for (const i of [1, 2]) {
      const a = ax.find((q) => q.key === t['p' + i]);
      const lo = $('tune-a' + i), hi = $('tune-b' + i);
      const show = !!(a && a.p);
      lo.parentNode.hidden = !show; hi.parentNode.hidden = !show;
      if (!show) { t['a' + i] = t['b' + i] = ''; continue; }
      if (t['a' + i] === '' || t['b' + i] === '') { const [x, y] = defaultRange(a.p); t['a' + i] = String(x); t['b' + i] = String(y); }
      lo.value = t['a' + i]; hi.value = t['b' + i];
      lo.min = hi.min = a.p.min; lo.max = hi.max = a.p.max; lo.step = hi.step = a.p.real ? 'any' : 1;
    }
    $('solve-axis').textContent = t.p1 + (t.p2 ? ' and ' + t.p2 : '');
    const m = metrics().find((q) => q[0] === t.metric);
    $('solve-metric').textContent = m ? m[1] : t.metric;
    $('solve-op').value = t.op; $('solve-target').value = t.target;
  }
  function varyList() {
    const ax = axes();
    const t = S.tune;
    const out = [];
    for (const i of [1, 2]) {
      const a = ax.find((q) => q.key === t['p' + i]);
      if (!a) continue;
      if (a.o) out.push(a.key + '=' + a.o.values.join(','));
      else {
        let lo = Number(t['a' + i]), hi = Number(t['b' + i]);
        if (hi < lo) [lo, hi] = [hi, lo];
        const spec = a.key + '=' + lo + '..' + hi + (a.p.real ? ':' + niceStep((hi - lo) / 20) : '');
        out.push(spec);
      }
    }
    return out;
  }
  async function runSweep() {
    if (!H.describe || !S.tune.p1) return;
    const body = Object.assign(config(), { vary: varyList(), metric: [S.tune.metric], delta: '', engine: engine() });
    if (engine() === 'sim') { body.trials = Math.min(S.trials, 20000); body.seed = S.seed; }
    for (const v of body.vary) delete body.set[v.split('=')[0]];
    let res;
    try { res = await api('sweep', '/api/sweep', body); } catch (e) {
      if (aborted(e)) return;
      const b = $('sweep-error'); b.textContent = '⚠ ' + e.message; b.hidden = false; return;
    }
    $('sweep-error').hidden = true;
    H.sweep = res;
    renderSweep();
  }
  const HEAT = [[59, 76, 192], [98, 130, 234], [141, 176, 254], [184, 208, 249], [221, 221, 221], [245, 196, 173], [244, 154, 123], [222, 96, 77], [180, 4, 38]];
  function heatColor(f) {
    f = Math.max(0, Math.min(1, f)) * (HEAT.length - 1);
    const i = Math.min(HEAT.length - 2, Math.floor(f)), t = f - i;
    const c = HEAT[i].map((a, k) => Math.round(a + (HEAT[i + 1][k] - a) * t));
    return 'rgb(' + c.join(',') + ')';
  }
  function currentSetting(name) {
    const ax = axes().find((a) => a.key === name);
    if (!ax) return null;
    return ax.p ? paramValue(ax.p) : optValue(ax.o);
  }
  function renderSweep() {
    const res = H.sweep;
    if (!res) return;
    const sw = res.result;
    const met = S.tune.metric;
    const mlabel = (metrics().find((m) => m[0] === met) || [met, met])[1];
    const isProb = /^(event|band|p):/.test(met);
    const val = (pt) => { const m = pt.metrics && pt.metrics[met]; return m ? m.value : null; };
    const vz = sw.varied || [];
    const nearest = H.solve && H.solve.result && H.solve.result.nearest ? H.solve.result.nearest : [];
    $('sweep-note').textContent = (sw.points || []).length + ' settings · ' + sw.engine;
    if (vz.length === 1) {
      $('heatmap').hidden = true; $('sweep-chart').hidden = false;
      const name = vz[0].name;
      const cat = vz[0].values.some((x) => !isNum(x));
      const xs = vz[0].values.map((x, i) => (cat ? i : x));
      const ys = sw.points.map(val);
      const err = sw.points.map((pt) => { const m = pt.metrics[met]; return m && m.ci95 ? m.ci95 : null; });
      $('sweep-title').textContent = mlabel + ' by ' + name;
      const cur = currentSetting(name);
      const curX = cat ? vz[0].values.indexOf(cur) : Number(cur);
      const marks = [];
      if (curX != null && curX >= 0 && !Number.isNaN(curX)) marks.push({ x: curX, color: '#7a8494' });
      const tg = Number(S.tune.target);
      if (H.solve && isFinite(tg)) marks.push({ y: tg, color: OI.vermillion });
      for (const nv of nearest) { // the answer's setting
        const nx = cat ? vz[0].values.indexOf(nv) : Number(nv);
        if (nx != null && nx >= 0 && !Number.isNaN(nx)) marks.push({ x: nx, color: OI.vermillion });
      }
      const rd = $('sweep-readout');
      const hover = (i) => {
        clear(rd);
        if (i == null || i < 0) { rd.append(el('span', { class: 'muted', text: 'dotted grey: the current setting' + (H.solve ? '; dotted vermillion: the target and the answer' : '') + ' — hover for values' })); return; }
        rd.append(el('b', { text: name + ' = ' + vz[0].values[i] }), '   ' + mlabel + ' ', el('b', { text: isProb ? fmtP(ys[i]) : fmtNum(ys[i], 3) }),
          err[i] ? ' [' + (isProb ? fmtP(err[i][0]) + ', ' + fmtP(err[i][1]) : fmtNum(err[i][0], 3) + ', ' + fmtNum(err[i][1], 3)) + ']' : '',
          nearest.includes(String(vz[0].values[i])) ? el('span', { style: 'color:' + OI.vermillion, text: '   ← the answer' }) : '');
      };
      makeChart('sweep', $('sweep-chart'), {
        xs, series: [{ label: mlabel, ys, color: OI.blue, kind: 'line', err: err.some(Boolean) ? err : null }],
        yProb: isProb, yPct: isProb, xLabel: name, yLabel: mlabel, marks, onHover: hover, categorical: cat,
        xReal: vz[0].values.some((x) => isNum(x) && !Number.isInteger(x)),
        xValues: cat ? (u, sp) => sp.map((v) => (Number.isInteger(v) ? vz[0].values[v] || '' : '')) : undefined,
      });
      hover(null);
    } else if (vz.length === 2) {
      $('sweep-chart').hidden = true; $('heatmap').hidden = false;
      if (charts.sweep) { charts.sweep.u.destroy(); delete charts.sweep; }
      clear($('sweep-readout'));
      const [ax, ay] = vz;
      $('sweep-title').textContent = mlabel + ' by ' + ax.name + ' and ' + ay.name;
      const grid = new Map();
      for (const pt of sw.points) grid.set(String(pt.settings[ax.name]) + '|' + String(pt.settings[ay.name]), val(pt));
      const vals = [...grid.values()].filter(isNum);
      const lo = isProb ? 0 : Math.min(...vals), hi = isProb ? 1 : Math.max(...vals);
      const curX = String(currentSetting(ax.name)), curY = String(currentSetting(ay.name));
      const t = el('table');
      const rows = ay.values.slice().reverse();
      rows.forEach((y, ri) => {
        const tr = el('tr', {}, ri === 0 ? el('th', { class: 'axis', rowspan: rows.length, style: 'writing-mode: vertical-rl; transform: rotate(180deg)', text: ay.name }) : null, el('th', { text: String(y) }));
        for (const x of ax.values) {
          const v = grid.get(String(x) + '|' + String(y));
          const f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
          const dark = f < 0.22 || f > 0.78;
          const txt = !isNum(v) ? '' : isProb ? (v === 0 ? '0' : v === 1 ? '1' : v < 0.005 ? '<.005' : v > 0.995 ? '≥.995' : v.toFixed(2).replace(/^0/, '')) : fmtNum(v, 2);
          tr.append(el('td', {
            class: String(x) === curX && String(y) === curY ? 'hi' : '', style: 'background:' + (isNum(v) ? heatColor(f) : '#f0f0f0') + ';color:' + (dark ? '#fff' : '#1d2430'),
            title: ax.name + '=' + x + ' ' + ay.name + '=' + y + ': ' + (isProb ? fmtP(v) : fmtNum(v, 4)), text: txt,
          }));
        }
        t.append(tr);
      });
      t.append(el('tr', {}, el('th'), el('th'), ax.values.map((x) => el('th', { text: String(x) }))));
      t.append(el('tr', {}, el('th'), el('th'), el('th', { class: 'axis', colspan: ax.values.length, text: ax.name })));
      const hm = clear($('heatmap'));
      hm.append(t, el('div', { class: 'scale' }, el('span', { text: isProb ? '0' : fmtNum(lo, 3) }),
        el('span', { class: 'ramp', style: 'background:linear-gradient(90deg,' + HEAT.map((c) => 'rgb(' + c.join(',') + ')').join(',') + ')' }),
        el('span', { text: isProb ? '1' : fmtNum(hi, 3) }), el('span', { text: '  ' + mlabel + ' · outlined: the current setting' })));
    }
    H.renders++;
  }
  async function runSolve(ev) {
    if (ev) ev.preventDefault();
    if (!H.describe) return;
    const t = S.tune;
    t.op = $('solve-op').value; t.target = $('solve-target').value.trim();
    saveState();
    const body = Object.assign(config(), { vary: varyList(), target: [t.metric + t.op + t.target], minimize: '', maximize: '', engine: engine() });
    if (engine() === 'sim') { body.trials = Math.min(S.trials, 20000); body.seed = S.seed; }
    for (const v of body.vary) delete body.set[v.split('=')[0]];
    const ans = $('solve-answer');
    let res;
    try { res = await api('solve', '/api/solve', body); } catch (e) {
      if (aborted(e)) return;
      const b = $('solve-error'); b.textContent = '⚠ ' + e.message; b.hidden = false; ans.hidden = true; return;
    }
    $('solve-error').hidden = true;
    H.solve = res;
    const lines = (res.text || '').replace(/\n$/, '').split('\n');
    clear(ans);
    ans.append(el('span', { class: 'muted', text: lines[0] + '\n' }), el('span', { class: 'lead', text: (lines[1] || '') + '\n' }), lines.slice(2).join('\n'));
    ans.hidden = false;
    renderSweep();
    ans.scrollIntoView({ block: 'nearest' });
  }

  // ---------- Describe ----------
  function renderDescribe() {
    const d = H.describe;
    if (!d) return;
    const tp = clear($('doc-params'));
    tp.append(el('thead', {}, el('tr', {}, ['parameter', 'default', 'range', 'description'].map((h) => el('th', { text: h })))));
    const tb = el('tbody');
    for (const p of d.params) tb.append(el('tr', {}, el('td', { text: p.name }), el('td', { class: 'num', text: fmtNum(p.default) }), el('td', { class: 'num', text: fmtNum(p.min) + '..' + fmtNum(p.max) + (p.real ? ' (real)' : '') }), el('td', { text: p.doc || '' })));
    if (!d.params.length) tb.append(el('tr', {}, el('td', { colspan: 4, class: 'muted', text: 'none' })));
    tp.append(tb);
    const ob = clear($('doc-options'));
    $('doc-options-card').hidden = !d.options.length;
    for (const o of d.options) {
      const parts = optionValueParts(o);
      ob.append(el('div', { class: 'opt-doc' }, el('div', { class: 'head', text: o.name + (o.short ? '  (' + o.short + ')' : '') }),
        el('ul', {}, o.values.map((v) => el('li', {}, el('code', { text: v }), v === o.default ? ' (default)' : '', parts[v] ? ': ' + parts[v] : '')))));
    }
    const to = clear($('doc-outputs'));
    to.append(el('thead', {}, el('tr', {}, ['output', 'kind', 'description'].map((h) => el('th', { text: h })))));
    const tb2 = el('tbody');
    for (const o of d.outputs) tb2.append(el('tr', {}, el('td', { text: o.name + (o.unit ? ' [' + o.unit + ']' : '') }), el('td', { text: o.kind + (o.primary ? ' (primary)' : '') }), el('td', { text: o.doc || '' })));
    to.append(tb2);
    $('describe-text').textContent = d.text || '';
  }

  // ---------- Write a rule: the editor ----------
  let charW = 0;
  function measureChar() {
    const probe = el('span', { style: 'position:absolute;visibility:hidden;white-space:pre;font:13px var(--mono)' }, 'x'.repeat(100));
    $('mirror').parentNode.append(probe);
    charW = probe.getBoundingClientRect().width / 100;
    probe.remove();
  }
  function showEditor(on) {
    $('editor-card').hidden = !on;
    if (!on) return;
    const mode = S.src === 'rules' ? 'rules' : 'expr';
    for (const b of document.querySelectorAll('[data-mode]')) b.setAttribute('aria-checked', b.dataset.mode === mode ? 'true' : 'false');
    const ta = $('rule-text');
    const text = mode === 'rules' ? S.rules : S.expr;
    if (ta.value !== text) ta.value = text;
    ta.placeholder = mode === 'rules' ? '[[rule]]\nid = "house.rule"\n…' : 'a dice expression: 4d6kh3, d20 + bonus >= tn, 3d6!, 8d10cs>=7 …';
    $('rule-pick').hidden = mode !== 'rules' || !(H.check && H.check.ok && (H.check.mechanics || []).length > 1);
    $('dialect-pick').hidden = mode !== 'expr';
    $('dialect-select').value = S.dialect;
    layoutEditor();
  }
  // renderReading shows, under the editor, how the server read the text:
  // an expression in another dialect in oddsmith's form ("read as Roll20:
  // 3d6cs>=3"), and the forms of the text that another dice tool reads
  // otherwise (the CLI's warnings), each at its place.
  function renderReading(res) {
    const rd = $('expr-reading'), ws = clear($('expr-warnings'));
    clear(rd);
    const e = res && res.ok && S.src === 'expr' ? res.expr : null;
    if (e && e.dialect !== 'oddsmith') rd.append('read as ' + e.title + ': ', el('code', { text: e.canonical }));
    rd.hidden = !rd.firstChild;
    for (const w of (res && res.ok && res.warnings) || []) {
      ws.append(el('li', null, el('span', { class: 'pos', text: w.col ? w.line + ':' + w.col : 'line ' + w.line }), '⚠ ' + markerText(w.message)));
    }
    ws.hidden = !ws.firstChild;
  }
  function layoutEditor(errors) {
    const ta = $('rule-text');
    const text = ta.value;
    const lines = text.split('\n');
    const bad = new Map();
    for (const e of errors || H.editorErrors || []) bad.set(Math.max(1, e.line || 1), e);
    const g = clear($('gutter'));
    lines.forEach((_, i) => g.append(el('div', { class: bad.has(i + 1) ? 'bad' : '', text: String(i + 1) })));
    ta.style.height = 'auto';
    ta.style.width = '100%';
    ta.style.height = Math.max(ta.scrollHeight, 20 * Math.max(1, lines.length) + 16) + 'px';
    if (ta.scrollWidth > ta.clientWidth) ta.style.width = ta.scrollWidth + 24 + 'px';
    // the mirror: the same text, the error's token underlined
    const mir = clear($('mirror'));
    const mk = clear($('markers'));
    if (!charW) measureChar();
    const errs = (errors || H.editorErrors || []);
    if (!errs.length) { mir.textContent = text; return; }
    const e0 = errs[0];
    const li = Math.min(lines.length, Math.max(1, e0.line || 1)) - 1;
    const col = Math.max(1, e0.col || 1) - 1;
    let before = lines.slice(0, li).join('\n') + (li > 0 ? '\n' : '');
    const line = lines[li] || '';
    const tokEnd = Math.max(col + 1, (/^\S*/.exec(line.slice(col)) || [''])[0].length + col);
    mir.append(before + line.slice(0, col), el('span', { class: 'errspan' }, line.slice(col, tokEnd) || ' '), line.slice(tokEnd) + '\n' + lines.slice(li + 1).join('\n'));
    for (const e of errs) {
      const l = Math.max(1, e.line || 1), c = Math.max(1, e.col || 1);
      const top = 8 + l * 20 + 3;
      const left = 10 + (c - 1) * charW - 6;
      mk.append(el('div', {
        class: 'marker', 'data-line': l, 'data-col': c, role: 'alert',
        style: 'top:' + top + 'px;left:' + Math.max(0, left) + 'px',
      }, el('span', { class: 'pos', text: l + ':' + c }), markerText(e.message)));
    }
  }
  // A marker says where already: the message without the file, rule and
  // expression positions ("rules.toml:14: rule house.x, let.roll: line 1,
  // column 17: unknown name" → "let.roll: unknown name").
  function markerText(msg) {
    return msg.replace(/^[^\s:]+\.toml:\d+(:\d+)?:\s*/, '').replace(/^--expr:\s*/, '')
      .replace(/^rule [^,:]+, ([^:]+): line \d+, column \d+:\s*/, '$1: ').replace(/^line \d+, column \d+:\s*/, '');
  }
  function editorInput() {
    const ta = $('rule-text');
    if (S.src === 'rules') S.rules = ta.value; else S.expr = ta.value;
    // a pasted rule file in the one-liner box: switch to the file mode
    if (S.src === 'expr' && /^\s*(#.*\n\s*)*\[\[rule\]\]/.test(ta.value)) { S.rules = ta.value; S.expr = ''; S.src = 'rules'; showEditor(true); }
    layoutEditor();
    saveState();
    subjectSeq++; // a load in flight is of the text before this edit
    later('check', () => loadSubject(), CHECK_MS);
  }
  async function checkRule(seq) {
    const body = S.src === 'expr' ? { expr: S.expr, dialect: S.dialect } : { rules: S.rules };
    const st = $('rule-state');
    if (!(S.src === 'expr' ? S.expr : S.rules).trim()) {
      H.editorErrors = []; layoutEditor(); renderReading(null); st.className = 'rule-state'; st.textContent = 'Type a rule.'; return false;
    }
    let res;
    try { res = await api('checkreq', '/api/check', body); } catch (e) {
      if (aborted(e)) return false;
      st.className = 'rule-state bad'; st.textContent = '⚠ ' + e.message; renderReading(null); return false;
    }
    if (seq !== subjectSeq) return false;
    H.check = res;
    renderReading(res);
    if (!res.ok) {
      H.editorErrors = res.errors || [];
      layoutEditor();
      st.className = 'rule-state bad';
      st.textContent = H.editorErrors.length + (H.editorErrors.length === 1 ? ' error' : ' errors') + (H.result ? ' — the results below are of the last rule that compiled.' : ' — the results appear once the rule compiles.');
      $('rule-pick').hidden = true;
      document.querySelector('.views').classList.toggle('noresult', !H.result);
      document.querySelector('.views').classList.add('stale');
      return false;
    }
    H.editorErrors = [];
    layoutEditor();
    document.querySelector('.views').classList.remove('stale', 'noresult');
    const ids = res.mechanics || [];
    if (S.src === 'rules') {
      if (!ids.includes(S.rule)) S.rule = ids.length > 1 ? ids[0] : (ids[0] || '');
      const sel = clear($('rule-select'));
      for (const id of ids) sel.append(el('option', { value: id, text: id, selected: id === S.rule }));
      sel.value = S.rule;
      $('rule-pick').hidden = ids.length < 2;
    }
    st.className = 'rule-state ok';
    st.textContent = '✓ compiles' + (S.src === 'rules' ? ' — ' + ids.length + (ids.length === 1 ? ' rule: ' : ' rules: ') + ids.join(', ') : '');
    return true;
  }
  function downloadRule() {
    const text = S.src === 'rules' ? S.rules : S.expr + '\n';
    const name = S.src === 'rules' ? (S.rule || (H.check && H.check.mechanics && H.check.mechanics[0]) || 'rule') + '.toml' : 'rule.txt';
    saveBlob(new Blob([text], { type: S.src === 'rules' ? 'application/toml' : 'text/plain' }), name);
  }
  function saveBlob(blob, name) {
    const a = el('a', { href: URL.createObjectURL(blob), download: name });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 5000);
  }

  // ---------- Share and export ----------
  async function exportAs(format) {
    // the PNG is drawn by the CLI's reports code: the view and variable shown
    const plot = { pmf: 'pmf', cdf: 'cdf', ccdf: 'atleast' }[S.view] || 'pmf';
    const v = currentVar(H.result);
    const body = Object.assign(config(), { engine: engine() });
    if (engine() === 'sim') { body.trials = S.trials; body.seed = S.seed; }
    const query = 'format=' + format + (format === 'png' ? '&plot=' + plot + (v ? '&var=' + encodeURIComponent(v) : '') : '');
    const ac = begin('export');
    try {
      const r = await fetch('/api/export?' + query, { method: 'POST', signal: ac.signal, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      if (!r.ok) throw await errorOf(r);
      const cd = r.headers.get('Content-Disposition') || '';
      const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
      const name = m ? decodeURIComponent(m[1]) : 'oddsmith.' + format;
      const blob = await r.blob();
      H.exports.push({ format, name, size: blob.size });
      saveBlob(blob, name);
      toast('Downloaded ' + name);
    } catch (e) {
      if (!aborted(e)) toast('Export failed: ' + e.message);
    } finally { end('export', ac); }
  }

  // ---------- tabs, keys, wiring ----------
  function setTab(tab) {
    S.tab = tab;
    for (const b of document.querySelectorAll('[role=tab]')) b.setAttribute('aria-selected', b.dataset.tab === tab ? 'true' : 'false');
    for (const t of ['results', 'compare', 'tune', 'describe']) $('panel-' + t).hidden = t !== tab;
    saveState();
    if (tab === 'tune' && H.describe) { fillRanges(); if (!H.sweep) later('sweep', runSweep, 0); else renderSweep(); }
    if (tab === 'compare' && H.compare) renderCompare();
    if (tab === 'results' && H.result) renderResult();
    // charts drawn while hidden have no width: redraw them at their size
    requestAnimationFrame(() => { for (const c of Object.values(charts)) { const w = chartWidth(c.u.root.parentNode); if (Math.abs(w - c.u.width) > 2) c.u.setSize({ width: w, height: c.u.height }); } });
  }
  function setView(v) {
    S.view = v;
    for (const b of document.querySelectorAll('[data-view]')) b.setAttribute('aria-checked', b.dataset.view === v ? 'true' : 'false');
    saveState();
    if (H.result) renderResult();
    if (H.compare) renderCompare();
  }

  let slashFocus = false;
  function wire() {
    $('search').addEventListener('input', () => renderList());
    // the '/' that focused the search is not typed into it (a keyboard that
    // sends its character apart from the key press would)
    $('search').addEventListener('beforeinput', (e) => { if (slashFocus && e.data === '/') e.preventDefault(); slashFocus = false; });
    $('search').addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown' && listButtons.length) { e.preventDefault(); listButtons[0].focus(); }
      if (e.key === 'Enter' && listButtons.length) { e.preventDefault(); listButtons[0].click(); }
      if (e.key === 'Escape') { $('search').value = ''; renderList(); scrollListToCurrent(); $('search').blur(); }
    });
    $('mech-list').addEventListener('keydown', (e) => {
      const i = listButtons.indexOf(document.activeElement);
      if (i < 0) return;
      if (e.key === 'ArrowDown' && i + 1 < listButtons.length) { e.preventDefault(); listButtons[i + 1].focus(); }
      if (e.key === 'ArrowUp') { e.preventDefault(); if (i > 0) listButtons[i - 1].focus(); else $('search').focus(); }
    });
    $('write-rule').addEventListener('click', () => openEditor());
    for (const b of document.querySelectorAll('[data-mode]')) b.addEventListener('click', () => {
      const mode = b.dataset.mode;
      if (S.src === mode) return;
      S.set = {};
      if (mode === 'rules' && !S.rules) S.rules = EXAMPLES.toml.text;
      if (mode === 'expr' && !S.expr) { S.expr = EXAMPLES.expr2.text; S.set = Object.assign({}, EXAMPLES.expr2.set); }
      S.src = mode; H.editorErrors = [];
      showEditor(true); loadSubject();
    });
    for (const b of document.querySelectorAll('[data-example]')) b.addEventListener('click', () => {
      const ex = EXAMPLES[b.dataset.example];
      resetSubjectState();
      S.src = ex.mode;
      if (ex.mode === 'rules') { S.rules = ex.text; S.rule = ''; } else { S.expr = ex.text; S.dialect = 'oddsmith'; }
      S.set = Object.assign({}, ex.set);
      H.editorErrors = [];
      showEditor(true); renderList(); loadSubject();
    });
    $('rule-text').addEventListener('input', editorInput);
    $('rule-select').addEventListener('change', () => { S.rule = $('rule-select').value; S.set = {}; loadSubject(); });
    $('dialect-select').addEventListener('change', () => { S.dialect = $('dialect-select').value; H.editorErrors = []; layoutEditor(); loadSubject(); });
    $('rule-download').addEventListener('click', downloadRule);
    $('reset').addEventListener('click', () => { S.set = {}; renderControls(); settingsChanged(); });
    $('pin').addEventListener('click', pin);
    $('pin2').addEventListener('click', pin);
    $('unpin').addEventListener('click', unpin);
    $('swap').addEventListener('click', swap);
    $('cmp-all').addEventListener('change', renderCompare);
    for (const b of document.querySelectorAll('[role=tab]')) b.addEventListener('click', () => setTab(b.dataset.tab));
    for (const b of document.querySelectorAll('[data-view]')) b.addEventListener('click', () => setView(b.dataset.view));
    $('sim-run').addEventListener('click', () => runSim(false));
    $('sim-cancel').addEventListener('click', cancelSim);
    $('sim-trials').addEventListener('change', () => { S.trials = Number($('sim-trials').value); saveState(); });
    $('sim-seed').addEventListener('change', () => { S.seed = Math.max(0, Math.round(Number($('sim-seed').value) || 0)); saveState(); });
    const tuneChanged = () => {
      const t = S.tune;
      const p1 = $('tune-p1').value, p2 = $('tune-p2').value;
      if (p1 !== t.p1) { t.p1 = p1; t.a1 = t.b1 = ''; }
      if (p2 !== t.p2) { t.p2 = p2 === p1 ? '' : p2; t.a2 = t.b2 = ''; }
      if (!t.p2) t.a2 = t.b2 = '';
      t.metric = $('tune-metric').value;
      for (const i of [1, 2]) { if ($('tune-a' + i).value !== '' && t['p' + i] === (i === 1 ? p1 : p2)) { t['a' + i] = $('tune-a' + i).value; t['b' + i] = $('tune-b' + i).value; } }
      H.solve = null; $('solve-answer').hidden = true;
      fillRanges(); saveState();
      later('sweep', runSweep);
    };
    for (const id of ['tune-p1', 'tune-p2', 'tune-metric']) $(id).addEventListener('change', tuneChanged);
    for (const id of ['tune-a1', 'tune-b1', 'tune-a2', 'tune-b2']) $(id).addEventListener('input', tuneChanged);
    $('solve-form').addEventListener('submit', runSolve);
    $('share').addEventListener('click', async () => { saveState(); toast((await copyText(location.href)) ? 'Link copied — it opens this exact view' : 'Copy the address bar: it holds this view'); });
    $('copy-cli').addEventListener('click', async () => { toast((await copyText($('cli-command').textContent)) ? 'Command copied' : 'Select the command to copy it'); });
    for (const b of document.querySelectorAll('.export')) b.addEventListener('click', () => exportAs(b.dataset.format));
    $('home').addEventListener('click', (e) => { e.preventDefault(); selectMechanic('ag.skill_test'); });
    document.addEventListener('keydown', (e) => {
      const tag = (e.target.tagName || '').toLowerCase();
      if (e.key === 'Escape' && inflight.has('sim')) { cancelSim(); return; }
      if (e.ctrlKey || e.metaKey || e.altKey || tag === 'input' || tag === 'textarea' || tag === 'select') return;
      if (e.key === '/') { e.preventDefault(); slashFocus = true; $('search').focus(); $('search').select(); }
      else if (e.key === 's') runSim(false);
      else if (e.key === 'p') pin();
      else if (e.key === 'c') $('copy-cli').click();
      else if (['1', '2', '3', '4'].includes(e.key)) setTab(['results', 'compare', 'tune', 'describe'][Number(e.key) - 1]);
    });
    window.addEventListener('hashchange', () => {
      // (replaceState, which saveState uses, fires no hashchange: this is a link or the user)
      if (location.hash === '#' + encodeState()) return;
      applyHash(location.hash);
    });
  }

  function applyHash(hash) {
    const s = decodeState(hash);
    cancel('sim'); showSimIdle();
    Object.assign(S, s);
    H.sim = null; H.result = null; H.describe = null; H.compare = null; H.sweep = null; H.solve = null; H.editorErrors = [];
    $('sim-trials').value = String(S.trials);
    if ($('sim-trials').value !== String(S.trials)) $('sim-trials').append(el('option', { value: S.trials, text: S.trials.toLocaleString('en'), selected: true }));
    $('sim-seed').value = S.seed;
    showEditor(S.src !== 'mechanic');
    renderList(); scrollListToCurrent();
    renderPinInfo();
    setTab(S.tab);
    setView(S.view);
    loadSubject();
  }

  async function start() {
    wire();
    try { H.mechanics = await api('mechanics', '/api/mechanics'); } catch (e) {
      showRunError('cannot load the mechanics: ' + e.message); return;
    }
    applyHash(location.hash);
  }

  // The hook the end-to-end tests (and a curious designer) read.
  window.oddsmith = {
    state: S,
    get mechanics() { return H.mechanics ? H.mechanics.mechanics : []; },
    get lastResult() { return H.result; },
    get lastRun() { return H.run; },
    get lastDescribe() { return H.describe; },
    get lastCheck() { return H.check; },
    get lastSim() { return H.simRun || null; },
    get simState() { return H.simState || 'idle'; },
    get simProgress() { return H.simProgress || 0; },
    get lastCompare() { return H.compare; },
    get lastSweep() { return H.sweep; },
    get lastSolve() { return H.solve; },
    get lastError() { return H.error; },
    get exports() { return H.exports; },
    get renders() { return H.renders; },
    get editorErrors() { return H.editorErrors || []; },
    // pending: debounce timers and requests in flight (0 when the page is settled)
    pending() { return inflight.size + timers.size; },
    // chart(key): the data drawn in a chart ("main", "cmp", "sweep", "surv"): [xs, ys…]
    chart(key) { const c = charts[key || 'main']; return c ? c.data.map((a) => Array.from(a)) : null; },
    url() { return location.href; },
    // view(): the state the URL holds, as the URL encodes it
    view() { return encodeState(); },
    simulate() { return runSim(false); },
    cancelSimulation: cancelSim,
  };

  start();
})();
