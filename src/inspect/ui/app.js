// skillrt inspect: the browser side. Plain DOM, no framework, no build step. Every value from the server
// reaches the page through textContent or attributes, never as HTML.

const view = document.getElementById("view");
const live = document.getElementById("live");
const dialog = document.getElementById("block");

const KIND_LABEL = {
  host: "host instructions",
  frame: "preamble",
  catalog: "catalog",
  skill: "skill body",
  doc: "selected doc",
  read: "read file",
  history: "history & tool results",
  tools: "tool definitions",
};
const STATUS_LABEL = {
  full: "full",
  shortened: "shortened",
  "name-only": "name only",
  "left-out": "left out",
  hidden: "hidden",
};

const nf = new Intl.NumberFormat("en-US");
const num = (n) => nf.format(n);

/** Creates an element: h("td", { class: "num" }, "12"). */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    // Through the CSSOM: the Content-Security-Policy forbids style attributes.
    else if (name === "style") Object.assign(el.style, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(2)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

function when(iso) {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

async function getJson(path) {
  const res = await fetch(path, { headers: { accept: "application/json" } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ?? `${res.status} ${res.statusText}`);
  return body;
}

function showBlock(title, meta, text) {
  document.getElementById("block-title").textContent = title;
  document.getElementById("block-meta").textContent = meta;
  document.getElementById("block-text").textContent = text;
  if (!dialog.open) dialog.showModal();
}
document.getElementById("block-close").addEventListener("click", () => dialog.close());
dialog.addEventListener("click", (event) => {
  if (event.target === dialog) dialog.close();
});

function setView(title, ...content) {
  document.title = `${title} · skillrt inspect`;
  view.replaceChildren(...content.flat(2).filter((c) => c !== null && c !== undefined && c !== false));
  view.setAttribute("aria-busy", "false");
}

function failure(error) {
  return h("p", { class: "error", role: "alert" }, `Could not load: ${error.message}`);
}

// ---------------------------------------------------------------- sessions

let sessionFilter = "";

async function renderSessions() {
  const sessions = await getJson("/api/sessions");
  const search = h("input", {
    type: "search",
    id: "session-search",
    value: sessionFilter,
    placeholder: "part of an id or of the first message",
    autocomplete: "off",
  });
  const body = h("tbody");
  const count = h("p", { class: "muted", role: "status" });
  const fill = () => {
    const q = sessionFilter.trim().toLowerCase();
    const shown = sessions.filter(
      (s) => s.id.toLowerCase().includes(q) || (s.firstMessage ?? "").toLowerCase().includes(q),
    );
    body.replaceChildren(
      ...shown.map((s) =>
        h(
          "tr",
          { dataset: { session: s.id } },
          h("td", { class: "id" }, h("a", { href: `#/session/${encodeURIComponent(s.id)}` }, s.id)),
          h("td", { class: "first-message" }, s.firstMessage ?? "—"),
          h("td", { class: "hide-narrow" }, when(s.createdAt)),
          h("td", {}, when(s.updatedAt)),
          h("td", { class: "num" }, num(s.turns)),
          h("td", { class: "hide-narrow" }, s.model ?? "—"),
          h("td", {}, s.loaded.length > 0 ? s.loaded.join(", ") : "—"),
          h(
            "td",
            { class: "num" },
            s.tokens > 0 ? num(s.tokens) : "—",
            s.problem ? h("span", { class: "error" }, ` ${s.problem}`) : null,
          ),
        ),
      ),
    );
    count.textContent =
      sessions.length === 0
        ? "No sessions yet: run `skillrt ask` or `skillrt chat` with this store."
        : `${shown.length} of ${sessions.length} session(s)`;
  };
  search.addEventListener("input", () => {
    sessionFilter = search.value;
    fill();
  });
  fill();
  setView(
    "Sessions",
    h("h1", {}, "Sessions"),
    h(
      "div",
      { class: "toolbar" },
      h("label", { for: "session-search" }, "Search by id or first message", search),
    ),
    count,
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { id: "sessions" },
        h("caption", { class: "skip" }, "Stored sessions, most recent first"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Session"),
            h("th", { scope: "col" }, "First message"),
            h("th", { scope: "col", class: "hide-narrow" }, "Started"),
            h("th", { scope: "col" }, "Last activity"),
            h("th", { scope: "col", class: "num" }, "Turns"),
            h("th", { scope: "col", class: "hide-narrow" }, "Model"),
            h("th", { scope: "col" }, "Loaded skills"),
            h("th", { scope: "col", class: "num" }, "Tokens"),
          ),
        ),
        body,
      ),
    ),
  );
}

// ---------------------------------------------------------------- one session

function historyText(session, end) {
  const lines = [];
  for (const m of session.messagesView.slice(0, end)) {
    for (const p of m.parts) {
      if (p.type === "text") lines.push(`[${m.role}] ${p.text}`);
      else if (p.type === "tool-call") lines.push(`[${m.role} → ${p.toolName}] ${p.input}`);
      else lines.push(`[tool result ${p.toolName}] ${p.output}`);
    }
  }
  return lines.join("\n\n");
}

function segmentsOf(turn) {
  const segments = turn.segments.map((s) => ({ ...s, ledger: true }));
  if (turn.host)
    segments.unshift({
      key: "host",
      kind: "host",
      tokens: turn.host.tokens,
      textId: turn.host.textId,
      ledger: false,
    });
  if (turn.tools && turn.tools.length > 0)
    segments.push({
      key: "tools",
      kind: "tools",
      tokens: turn.tools.reduce((sum, t) => sum + t.tokens, 0),
      ledger: false,
    });
  return segments;
}

/** The tool definitions of a turn's last request, one line per tool, largest first. */
function toolsText(turn) {
  const rows = [...turn.tools].sort((a, b) => b.tokens - a.tokens);
  const width = Math.max(...rows.map((t) => t.name.length));
  return rows.map((t) => `${t.name.padEnd(width)}  ${num(t.tokens)}`).join("\n");
}

function segmentLabel(s) {
  return s.kind === "skill" || s.kind === "doc" || s.kind === "read"
    ? s.key.replace(/^[a-z]+:/, "")
    : (KIND_LABEL[s.kind] ?? s.kind);
}

function openSegment(session, turn, s) {
  const text =
    s.kind === "history"
      ? historyText(session, turn.messageEnd)
      : s.kind === "tools"
        ? toolsText(turn)
        : (session.texts[s.textId] ?? "(text not recorded)");
  const extra =
    s.kind === "history"
      ? ` · of which tool results ${num(turn.toolResultTokens)}`
      : s.kind === "tools"
        ? ` · ${turn.tools.length} tools, as the last request of the turn carried them`
        : "";
  showBlock(
    `Turn ${turn.turn}: ${KIND_LABEL[s.kind] ?? s.kind} ${s.kind === "skill" || s.kind === "doc" || s.kind === "read" ? segmentLabel(s) : ""}`.trim(),
    `${num(s.tokens)} tokens (${turn.counter})${extra}${s.ledger ? "" : " · not part of the skill ledger"}`,
    text,
  );
}

function compositionBar(session, turn) {
  const segments = segmentsOf(turn);
  const bar = h("div", {
    class: "bar",
    role: "group",
    "aria-label": `What the model saw at the end of turn ${turn.turn}, in tokens`,
  });
  for (const s of segments) {
    if (s.tokens === 0) continue;
    const label = `${segmentLabel(s)}: ${num(s.tokens)} tokens`;
    bar.append(
      h(
        "button",
        {
          type: "button",
          class: `seg k-${s.kind}`,
          style: { flexGrow: String(s.tokens) },
          title: label,
          "aria-label": label,
          dataset: { key: s.key, kind: s.kind, tokens: String(s.tokens), ledger: String(s.ledger) },
          onclick: () => openSegment(session, turn, s),
        },
        `${segmentLabel(s)} ${num(s.tokens)}`,
      ),
    );
  }
  return bar;
}

function gauge(turn) {
  const toolTokens = (turn.tools ?? []).reduce((sum, t) => sum + t.tokens, 0);
  const total = turn.ledgerTotal + (turn.host?.tokens ?? 0) + toolTokens;
  const window = turn.contextWindow;
  const pct = (n) => `${Math.min(100, (n / window) * 100).toFixed(2)}%`;
  return [
    h(
      "div",
      {
        class: "gauge",
        role: "meter",
        "aria-label": "Context window used",
        "aria-valuemin": "0",
        "aria-valuemax": String(window),
        "aria-valuenow": String(total),
      },
      h("div", { class: "fill", style: { width: pct(total) } }),
      h("div", {
        class: "mark",
        style: { left: pct(turn.threshold) },
        title: `eviction threshold ${num(turn.threshold)}`,
      }),
    ),
    h(
      "p",
      { class: "gauge-text" },
      `${num(total)} of ${num(window)} tokens${turn.contextWindowKnown ? "" : " (default window)"} · ${pct(total)} used · eviction threshold ${num(turn.threshold)} (red line) · catalog budget ${num(turn.catalogBudget)} · tokenizer ${turn.counter}`,
    ),
  ];
}

function legend(session, turn) {
  const rows = segmentsOf(turn).map((s) =>
    h(
      "tr",
      { dataset: { key: s.key, tokens: String(s.tokens), ledger: String(s.ledger) } },
      h(
        "td",
        {},
        h("span", { class: `swatch k-${s.kind}`, "aria-hidden": "true" }),
        h("button", { type: "button", onclick: () => openSegment(session, turn, s) }, segmentLabel(s)),
      ),
      h("td", { class: "hide-narrow" }, KIND_LABEL[s.kind] ?? s.kind),
      h("td", { class: "num" }, num(s.tokens)),
    ),
  );
  return h(
    "div",
    { class: "table-wrap legend" },
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Block"),
          h("th", { scope: "col", class: "hide-narrow" }, "Kind"),
          h("th", { scope: "col", class: "num" }, "Tokens"),
        ),
      ),
      h("tbody", {}, rows),
      h(
        "tfoot",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "row" }, "Skill ledger total"),
          h("td", { class: "hide-narrow" }),
          h(
            "td",
            { class: "num", dataset: { ledgerTotal: String(turn.ledgerTotal) } },
            num(turn.ledgerTotal),
          ),
        ),
      ),
    ),
  );
}

function eventItem(e, results) {
  const at = `+${(e.at / 1000).toFixed(2)}s`;
  switch (e.type) {
    case "step-start":
      return h(
        "li",
        { class: "step", dataset: { type: e.type } },
        `${at} step ${e.step + 1}: model call (${e.activeTools.length} tools offered)`,
      );
    case "step-end":
      return h(
        "li",
        { class: "step", dataset: { type: e.type } },
        `${at} step ${e.step + 1} ended: ${e.finishReason}, ${num(e.usage.inputTokens)} in / ${num(e.usage.outputTokens)} out (provider count)`,
      );
    case "skill-load":
      return h(
        "li",
        { dataset: { type: e.type, name: e.name } },
        `${at} loaded skill `,
        h("strong", {}, e.name),
        ` by ${e.by === "select" ? "selection" : e.by} (${num(e.tokens)} tokens)`,
      );
    case "skill-unload":
      return h(
        "li",
        { dataset: { type: e.type, name: e.name } },
        `${at} unloaded skill `,
        h("strong", {}, e.name),
        ` by ${e.by}`,
      );
    case "budget-evict":
      return h(
        "li",
        { dataset: { type: e.type, name: e.name } },
        `${at} evicted `,
        h("strong", {}, e.name),
        `: ${e.reason}`,
      );
    case "history-compact":
      return h(
        "li",
        { dataset: { type: e.type } },
        `${at} history compacted: ${e.removedMessages} messages summarised (${num(e.tokensBefore)} → ${num(e.tokensAfter)} tokens); loaded skills re-injected`,
      );
    case "tool-call": {
      const result = results.get(e.toolCallId);
      return h(
        "li",
        { dataset: { type: e.type, tool: e.toolName } },
        h(
          "details",
          {},
          h(
            "summary",
            {},
            `${at} `,
            h("code", {}, e.toolName),
            result === undefined
              ? " (no result)"
              : result.isError
                ? " → error"
                : ` → ${num(result.bytes)} bytes`,
          ),
          h("h3", {}, "Arguments"),
          h("pre", {}, e.input),
          result === undefined
            ? null
            : h(
                "h3",
                {},
                result.isError
                  ? "Error (as the model saw it, redacted)"
                  : "Result (as the model saw it, redacted)",
              ),
          result === undefined ? null : h("pre", {}, result.output),
        ),
      );
    }
    case "error":
      return h(
        "li",
        { class: "error", dataset: { type: e.type } },
        `${at} ${e.fatal ? "fatal error" : "error"}: ${e.message}`,
      );
    default:
      return null;
  }
}

function timeline(turn) {
  const results = new Map(turn.events.filter((e) => e.type === "tool-result").map((e) => [e.toolCallId, e]));
  const items = turn.events.map((e) => eventItem(e, results)).filter((x) => x !== null);
  return h(
    "ol",
    { class: "timeline", "aria-label": `Events of turn ${turn.turn}` },
    items.length > 0 ? items : h("li", { class: "step" }, "No events recorded."),
  );
}

/**
 * The subagents the turn started, each linking to its own session (its context composition and turns),
 * and the turn's tokens by agent: this agent's own steps plus each child's, summing to the turn's total.
 */
function subagents(turn) {
  const ends = turn.events.filter((e) => e.type === "agent-end");
  if (ends.length === 0) return null;
  // What each child's definition asked for beyond its parent's settings, and did not get.
  const narrowed = new Map(
    turn.events
      .filter((e) => e.type === "agent-start" && Array.isArray(e.narrowed) && e.narrowed.length > 0)
      .map((e) => [e.sessionId, e.narrowed]),
  );
  const own = turn.usage.totalTokens;
  const total = ends.reduce((sum, e) => sum + e.usage.totalTokens, own);
  return h(
    "div",
    { class: "subagents", "aria-label": `Subagents of turn ${turn.turn}` },
    h("h3", {}, "Subagents"),
    h(
      "ul",
      { class: "agents" },
      ends.map((e) =>
        h(
          "li",
          { dataset: { agent: e.agent, session: e.sessionId, tokens: String(e.usage.totalTokens) } },
          h("a", { href: `#/session/${encodeURIComponent(e.sessionId)}` }, e.agent),
          ` · ${num(e.steps)} steps · ${num(e.usage.totalTokens)} tokens`,
          e.skillsLoaded.length > 0 ? ` · skills: ${e.skillsLoaded.join(", ")}` : "",
          e.files.length > 0 ? ` · files: ${e.files.join(", ")}` : "",
          e.error ? ` · failed: ${e.error}` : e.aborted ? " · aborted" : "",
          narrowed.has(e.sessionId)
            ? h(
                "ul",
                { class: "narrowed" },
                narrowed.get(e.sessionId).map((note) => h("li", {}, `narrowed: ${note}`)),
              )
            : "",
        ),
      ),
    ),
    h(
      "p",
      { class: "agent-tokens", dataset: { own: String(own), total: String(total) } },
      `Tokens by agent: this agent ${num(own)}`,
      ...ends.map((e) => ` + ${e.agent} ${num(e.usage.totalTokens)}`),
      ` = ${num(total)} for the turn`,
    ),
  );
}

function turnCard(session, turn) {
  return h(
    "section",
    {
      class: "card turn",
      id: `turn-${turn.turn}`,
      "aria-labelledby": `turn-${turn.turn}-title`,
      dataset: { turn: String(turn.turn) },
    },
    h(
      "header",
      {},
      h("h2", { id: `turn-${turn.turn}-title` }, `Turn ${turn.turn}`),
      h(
        "span",
        { class: "muted" },
        `${when(turn.startedAt)} · ${num(turn.usage.totalTokens)} tokens billed by the provider`,
      ),
    ),
    h("p", { class: "user-text" }, turn.userText),
    turn.traceId
      ? h("p", { class: "muted trace-id" }, "OpenTelemetry trace ", h("code", {}, turn.traceId))
      : null,
    turn.error ? h("p", { class: "error" }, `Failed: ${turn.error}`) : null,
    subagents(turn),
    h("h3", {}, "What the model saw (end of turn)"),
    compositionBar(session, turn),
    ...gauge(turn),
    h(
      "div",
      { class: "grid2" },
      h("div", {}, h("h3", {}, "Blocks"), legend(session, turn)),
      h("div", {}, h("h3", {}, "Timeline"), timeline(turn)),
    ),
  );
}

function conversation(session) {
  return h(
    "details",
    { class: "card" },
    h("summary", {}, `Conversation (${session.messagesView.length} messages)`),
    h("pre", {}, historyText(session, session.messagesView.length)),
  );
}

const liveLog = [];

async function renderSession(id) {
  const s = await getJson(`/api/sessions/${encodeURIComponent(id)}`);
  const meta = [
    ["Model", s.model ?? "—"],
    ["Started", when(s.createdAt)],
    ["Last activity", when(s.updatedAt)],
    ["Turns", num(s.turns)],
    ["Messages", num(s.messages)],
    ["Placement", s.placement ?? "—"],
    ["Loaded skills", s.loaded.length > 0 ? s.loaded.join(", ") : "none"],
  ];
  const log = h("ol", { class: "live-log", id: "live-log", "aria-live": "polite" });
  for (const line of liveLog.filter((l) => l.id === id)) log.append(h("li", {}, line.text));
  setView(
    `Session ${id}`,
    h("p", {}, h("a", { href: "#/" }, "← All sessions")),
    h("h1", {}, "Session ", h("span", { class: "id" }, id)),
    h(
      "dl",
      { class: "meta" },
      meta.map(([k, v]) => h("div", {}, h("dt", {}, k), h("dd", {}, v))),
    ),
    s.problem ? h("p", { class: "error" }, s.problem) : null,
    log,
    s.turnRecords.length === 0
      ? h(
          "p",
          { class: "muted" },
          "No turn records: this session was saved by a skillrt without the inspector's turn log.",
        )
      : s.turnRecords.map((t) => turnCard(s, t)),
    conversation(s),
  );
}

// ---------------------------------------------------------------- catalog

// The first render shows one page of rows (every count and the status filter still cover all skills);
// more rows come on request, so a catalog of thousands opens as fast as one of a hundred.
const CATALOG_PAGE = 200;

let catalogQuery = "";
let catalogStatus = "";

function cell(className, text) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

/** One catalog row, built directly (no per-row listeners: the findings buttons share one on the tbody). */
function catalogRow(s) {
  const tr = document.createElement("tr");
  tr.dataset.skill = s.name;
  tr.dataset.status = s.status;
  const skill = document.createElement("td");
  const name = document.createElement("strong");
  name.textContent = s.name;
  const description = document.createElement("div");
  description.className = "muted";
  description.textContent = s.description;
  skill.append(name, description);
  const status = document.createElement("td");
  const badge = document.createElement("span");
  badge.className = `badge s-${s.status}`;
  badge.textContent = STATUS_LABEL[s.status];
  status.append(badge);
  let findings;
  if (s.diagnostics.length === 0) findings = cell("", "—");
  else {
    findings = document.createElement("td");
    const button = document.createElement("button");
    button.type = "button";
    button.className = s.diagnostics.some((d) => d.severity === "error") ? "findings error" : "findings";
    button.setAttribute("aria-expanded", "false");
    button.textContent = `${s.diagnostics.length} finding(s)`;
    findings.append(button);
  }
  tr.append(
    skill,
    cell("hide-narrow", s.scope),
    status,
    cell("num", s.bodyTokens === undefined ? "—" : num(s.bodyTokens)),
    findings,
  );
  return tr;
}

/** Shows or hides a skill's findings under its button (built on first open). */
function toggleFindings(button, skill) {
  const open = button.getAttribute("aria-expanded") === "true";
  button.setAttribute("aria-expanded", String(!open));
  let list = button.nextElementSibling;
  if (list === null) {
    list = h(
      "ul",
      { class: "findings-list" },
      skill.diagnostics.map((d) =>
        h("li", {}, `${d.severity} ${d.code}${d.line ? ` (line ${d.line})` : ""}: ${d.message}`),
      ),
    );
    button.after(list);
  }
  list.hidden = open;
}

async function renderCatalog() {
  // The first render needs only the first page of skills (the counts come with it); every skill follows
  // once that page is on screen, and anything that needs them (more rows, a filter, a search) waits for it.
  const plain = catalogQuery.trim() === "" && catalogStatus === "";
  let c = await getJson(plain ? `/api/catalog?first=${CATALOG_PAGE}` : "/api/catalog");
  if (c.skills === undefined) {
    setView(
      "Catalog",
      h("h1", {}, "Catalog"),
      h("p", { class: "muted" }, "No catalog: start skillrt inspect with --root DIR."),
    );
    return;
  }
  const counts = c.counts;
  const search = h("input", {
    type: "search",
    id: "catalog-search",
    value: catalogQuery,
    placeholder: "what skill_search would get",
    autocomplete: "off",
  });
  const status = h(
    "select",
    { id: "catalog-status" },
    h("option", { value: "" }, "every status"),
    Object.entries(STATUS_LABEL).map(([value, label]) =>
      h("option", { value, selected: value === catalogStatus }, `${label} (${num(counts[value] ?? 0)})`),
    ),
  );
  const body = h("tbody");
  const shownCount = h("p", { class: "muted", role: "status", id: "catalog-shown" });
  const moreButton = h("button", { type: "button", id: "catalog-more" });
  const allButton = h("button", { type: "button", id: "catalog-all" });
  const more = h("p", { class: "toolbar more" }, moreButton, allButton);
  let byName = new Map(c.skills.map((s) => [s.name, s]));
  let complete = Promise.resolve();
  const loadAll = () => {
    complete = getJson("/api/catalog").then((all) => {
      const same = c.skills.every(
        (s, i) => all.skills[i]?.name === s.name && all.skills[i].status === s.status,
      );
      c = all;
      byName = new Map(c.skills.map((s) => [s.name, s]));
      fill({ keepRows: same });
    });
    complete.catch((error) => {
      shownCount.textContent = `Could not load every skill: ${error.message}`;
    });
  };
  let searchOrder;
  let shown = [];
  let limit = CATALOG_PAGE;
  /** Appends rows up to `limit` (rows already on the page stay). */
  const extend = () => {
    const rows = document.createDocumentFragment();
    for (let i = body.rows.length; i < Math.min(limit, shown.length); i++) rows.append(catalogRow(shown[i]));
    body.append(rows);
    const matching = searchOrder === undefined && catalogStatus === "" ? c.total : shown.length;
    more.hidden = matching === body.rows.length;
    moreButton.textContent = `Show ${num(Math.min(CATALOG_PAGE, matching - body.rows.length))} more`;
    allButton.textContent = `Show all ${num(matching)}`;
    shownCount.textContent = `${num(body.rows.length)} of ${num(matching)} matching, ${num(c.total)} skill(s) in all${searchOrder === undefined ? "" : ", ranked by skill_search"}`;
  };
  /**
   * Recomputes which skills match the search and status filter, and shows the first page of them
   * (`keepRows`: the rows on the page are already the right ones).
   */
  const fill = ({ keepRows = false } = {}) => {
    const list =
      searchOrder === undefined ? c.skills : searchOrder.map((hit) => byName.get(hit.name)).filter(Boolean);
    shown = list.filter((s) => catalogStatus === "" || s.status === catalogStatus);
    if (!keepRows) {
      limit = CATALOG_PAGE;
      body.replaceChildren();
    }
    extend();
  };
  moreButton.addEventListener("click", async () => {
    await complete;
    limit += CATALOG_PAGE;
    extend();
  });
  allButton.addEventListener("click", async () => {
    await complete;
    limit = shown.length;
    extend();
  });
  body.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button.findings") : null;
    const skill = byName.get(button?.closest("tr")?.dataset.skill);
    if (button && skill) toggleFindings(button, skill);
  });
  let timer;
  search.addEventListener("input", () => {
    catalogQuery = search.value;
    clearTimeout(timer);
    timer = setTimeout(async () => {
      await complete;
      searchOrder =
        catalogQuery.trim() === ""
          ? undefined
          : await getJson(`/api/search?q=${encodeURIComponent(catalogQuery)}`);
      fill();
    }, 150);
  });
  status.addEventListener("change", async () => {
    catalogStatus = status.value;
    await complete;
    fill();
  });
  if (catalogQuery.trim() !== "")
    searchOrder = await getJson(`/api/search?q=${encodeURIComponent(catalogQuery)}`);
  fill();
  const st = c.stats;
  setView(
    "Catalog",
    h("h1", {}, "Catalog"),
    h(
      "p",
      {
        id: "catalog-summary",
        dataset: Object.fromEntries(
          Object.keys(STATUS_LABEL).map((k) => [
            k.replace(/-(.)/, (_m, x) => x.toUpperCase()),
            counts[k] ?? 0,
          ]),
        ),
      },
      `${num(c.total)} skills (${num(st.visible)} visible to the model). The catalog block costs ${num(st.tokens)} of its ${num(c.catalogBudget)}-token budget (${c.counter}): `,
      `${num(counts.full ?? 0)} listed in full, ${num(counts.shortened ?? 0)} shortened, ${num(counts["name-only"] ?? 0)} by name only, ${num(counts["left-out"] ?? 0)} left out, ${num(counts.hidden ?? 0)} hidden from the model.`,
      st.searchOffered ? " skill_search is offered." : "",
      " Pick a status below to list exactly those skills.",
    ),
    h(
      "div",
      { class: "toolbar" },
      h("label", { for: "catalog-search" }, "Search (same as skill_search)", search),
      h("label", { for: "catalog-status" }, "Status in the catalog block", status),
      h(
        "button",
        {
          type: "button",
          id: "show-block",
          onclick: () =>
            showBlock(
              "The catalog block",
              `${num(st.tokens)} tokens (${c.counter}) as the model sees it`,
              c.blockText,
            ),
        },
        "Show the catalog block",
      ),
    ),
    shownCount,
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { id: "catalog" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Skill"),
            h("th", { scope: "col", class: "hide-narrow" }, "Scope"),
            h("th", { scope: "col" }, "In the catalog block"),
            h("th", { scope: "col", class: "num" }, "Body tokens"),
            h("th", { scope: "col" }, "Diagnostics"),
          ),
        ),
        body,
      ),
    ),
    more,
    c.problems.length === 0
      ? null
      : h(
          "section",
          { class: "card" },
          h("h2", {}, "Skills that could not be listed"),
          h(
            "ul",
            {},
            c.problems.map((d) =>
              h(
                "li",
                { class: d.severity === "error" ? "error" : "" },
                `${d.path}${d.line ? `:${d.line}` : ""} ${d.code}: ${d.message}`,
              ),
            ),
          ),
        ),
  );
  // After this first page is painted.
  if (c.skills.length < c.total) setTimeout(loadAll, 0);
}

// ---------------------------------------------------------------- routing and live updates

function route() {
  const hash = location.hash.replace(/^#/, "") || "/";
  if (hash.startsWith("/session/")) {
    // A hand-edited or truncated link (`%E0%A4%A`) is not a session id: it gets its own view.
    try {
      return { name: "session", id: decodeURIComponent(hash.slice("/session/".length)) };
    } catch {
      return { name: "bad-link", hash };
    }
  }
  if (hash === "/catalog") return { name: "catalog" };
  return { name: "sessions" };
}

function renderBadLink(hash) {
  setView(
    "Bad link",
    h("h1", {}, "Bad link"),
    h(
      "p",
      { class: "error", role: "alert", id: "bad-link" },
      `The address #${hash} does not name a session (it is not valid percent-encoding). `,
      h("a", { href: "#/" }, "Show all sessions"),
      ".",
    ),
  );
}

let rendering = Promise.resolve();
function render({ focus = false } = {}) {
  // Each render runs after the previous one, whether that one succeeded or not: one failure must not
  // leave the page unable to render again until a reload.
  rendering = rendering
    .catch(() => {})
    .then(async () => {
      const r = route();
      for (const a of document.querySelectorAll("nav a")) {
        if (a.dataset.nav === (r.name === "catalog" ? "catalog" : "sessions"))
          a.setAttribute("aria-current", "page");
        else a.removeAttribute("aria-current");
      }
      view.setAttribute("aria-busy", "true");
      const scroll = window.scrollY;
      try {
        if (r.name === "bad-link") renderBadLink(r.hash);
        else if (r.name === "session") await renderSession(r.id);
        else if (r.name === "catalog") await renderCatalog();
        else await renderSessions();
      } catch (error) {
        setView("Error", failure(error));
      }
      if (focus) view.focus();
      else window.scrollTo(0, scroll);
    });
  return rendering;
}

window.addEventListener("hashchange", () => {
  // The block dialog belongs to the view it was opened from: leaving the view closes it.
  if (dialog.open) dialog.close();
  render({ focus: true });
});

function connect() {
  const events = new EventSource("/api/events");
  events.addEventListener("open", () => {
    live.dataset.state = "live";
    live.textContent = "live";
  });
  events.addEventListener("error", () => {
    live.dataset.state = "down";
    live.textContent = "reconnecting…";
  });
  events.addEventListener("session", (message) => {
    const { id } = JSON.parse(message.data);
    const r = route();
    if (r.name === "sessions" || (r.name === "session" && r.id === id)) {
      // Keep a search box's focus and caret across the refresh.
      const active = document.activeElement?.id;
      render().then(() => {
        if (active) document.getElementById(active)?.focus();
      });
    }
  });
  events.addEventListener("agent", (message) => {
    const { id, event } = JSON.parse(message.data);
    const text =
      event.type === "tool-call"
        ? `step ${event.step + 1}: ${event.toolName} called`
        : event.type === "skill-load"
          ? `step ${event.step + 1}: ${event.name} loaded by ${event.by}`
          : `step ${event.step + 1}: ${event.type}`;
    liveLog.push({ id, text });
    if (liveLog.length > 200) liveLog.shift();
    const r = route();
    if (r.name === "session" && r.id === id) document.getElementById("live-log")?.append(h("li", {}, text));
  });
}

render();
connect();
