// The chat page of `skillrt serve`: speaks the AI SDK's UI message stream (the same as useChat) to
// POST /api/chat, one turn per request, and shows the answer, the skill activity and approval questions.
// The token comes from the page's #token= fragment (never sent to the server in the URL) or the form, and
// stays in this tab's sessionStorage.

const $ = (id) => document.getElementById(id);
const log = $("log");
const status = $("status");
const input = $("input");

const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get("token")) {
  sessionStorage.setItem("skillrt-token", fragment.get("token"));
  history.replaceState(null, "", location.pathname + location.search);
}
let token = sessionStorage.getItem("skillrt-token") ?? "";
let conversationId = new URLSearchParams(location.search).get("c") ?? crypto.randomUUID();
let busy = false;

function showConversation() {
  $("conversation").textContent = conversationId;
  history.replaceState(null, "", `${location.pathname}?c=${encodeURIComponent(conversationId)}`);
}

function headers() {
  const h = { "Content-Type": "application/json" };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function short(value) {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/** Renders the parts of one assistant message as they stream in. */
function assistantView() {
  const box = element("div", "message assistant");
  log.append(box);
  const tools = new Map();
  const blocks = new Map();
  const approvals = [];
  const activity = (text, className = "") => {
    const line = element("div", `activity ${className}`.trim(), text);
    box.append(line);
    log.scrollTop = log.scrollHeight;
    return line;
  };
  return {
    apply(chunk) {
      switch (chunk.type) {
        case "text-start":
        case "reasoning-start": {
          const span = element("div", chunk.type === "text-start" ? "text" : "reasoning");
          blocks.set(chunk.id, span);
          box.append(span);
          break;
        }
        case "text-delta":
        case "reasoning-delta":
          blocks.get(chunk.id)?.append(chunk.delta);
          log.scrollTop = log.scrollHeight;
          break;
        case "tool-input-available":
          tools.set(chunk.toolCallId, {
            name: chunk.toolName,
            input: chunk.input,
            line: activity(`→ ${chunk.toolName} ${short(chunk.input)}`),
          });
          break;
        case "tool-output-available": {
          const tool = tools.get(chunk.toolCallId);
          if (tool) {
            tool.line.textContent = `✓ ${tool.name} ${short(chunk.output)}`;
            // The whole output on hover: the line shows its start.
            tool.line.title = typeof chunk.output === "string" ? chunk.output : JSON.stringify(chunk.output);
          }
          break;
        }
        case "tool-output-error": {
          const tool = tools.get(chunk.toolCallId);
          if (tool) {
            tool.line.textContent = `✗ ${tool.name}: ${short(chunk.errorText)}`;
            tool.line.classList.add("error");
          }
          break;
        }
        case "tool-output-denied": {
          const tool = tools.get(chunk.toolCallId);
          if (tool) tool.line.textContent = `✗ ${tool.name}: not approved`;
          break;
        }
        case "tool-approval-request": {
          const tool = tools.get(chunk.toolCallId);
          const question = element("div", "approval");
          question.append(
            "Run ",
            element("code", "", tool?.name ?? "a tool"),
            ` ${short(tool?.input ?? "")}? `,
          );
          const answer = { chunk, tool, approved: undefined };
          approvals.push(answer);
          for (const [label, approved] of [
            ["Approve", true],
            ["Deny", false],
          ]) {
            const button = element("button", "", label);
            button.type = "button";
            button.addEventListener("click", () => {
              answer.approved = approved;
              question.textContent = approved ? "Approved." : "Denied.";
              if (approvals.every((a) => a.approved !== undefined)) answerApprovals(approvals);
            });
            question.append(button);
          }
          box.append(question);
          break;
        }
        case "data-skill": {
          const d = chunk.data;
          const what =
            d.type === "skill-load"
              ? `loaded skill ${d.name} (${d.tokens} tokens)`
              : d.type === "file-read"
                ? `read ${d.name}/${d.path}`
                : d.type === "skill-unload"
                  ? `unloaded skill ${d.name}`
                  : d.type === "docs-select"
                    ? `selected docs of ${d.name}`
                    : `evicted ${(d.evicted ?? []).join(", ")}`;
          activity(`◆ ${what}`);
          break;
        }
        case "data-agent":
          activity(
            chunk.data.type === "agent-start"
              ? `⇢ subagent ${chunk.data.agent}: ${short(chunk.data.task)}`
              : `⇠ subagent ${chunk.data.agent} done`,
          );
          break;
        case "data-notice":
          // Which tools are offered is for logs; a person sees the calls themselves.
          if (chunk.data.kind !== "tools-change") activity(`ℹ ${chunk.data.message}`);
          break;
        case "error":
          activity(`error: ${chunk.errorText}`, "error");
          break;
        case "finish": {
          const usage = chunk.messageMetadata?.usage;
          status.textContent = usage ? `done · ${usage.totalTokens} tokens` : "done";
          break;
        }
        default:
          break;
      }
    },
  };
}

async function readStream(response, view) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split("\n")) {
        if (!line.startsWith("data: ")) continue;
        const data = line.slice(6);
        if (data !== "[DONE]") view.apply(JSON.parse(data));
      }
      end = buffer.indexOf("\n\n");
    }
  }
}

async function send(message) {
  busy = true;
  $("send").disabled = true;
  status.textContent = "thinking…";
  try {
    const response = await fetch("api/chat", {
      method: "POST",
      headers: headers(),
      body: JSON.stringify({ id: conversationId, messages: [message], trigger: "submit-message" }),
    });
    if (response.status === 401) {
      $("token-form").hidden = false;
      status.textContent = "this server needs its bearer token";
      return;
    }
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      status.textContent = `refused (${response.status}): ${body.error ?? response.statusText}`;
      return;
    }
    await readStream(response, assistantView());
  } catch (error) {
    status.textContent = `failed: ${error.message}`;
  } finally {
    busy = false;
    $("send").disabled = false;
  }
}

function answerApprovals(approvals) {
  void send({
    id: crypto.randomUUID(),
    role: "assistant",
    parts: approvals.map((a) => ({
      type: "dynamic-tool",
      toolName: a.tool?.name ?? "tool",
      toolCallId: a.chunk.toolCallId,
      input: a.tool?.input,
      state: "approval-responded",
      approval: { id: a.chunk.approvalId, approved: a.approved },
    })),
  });
}

async function loadConversation() {
  const response = await fetch(`api/chat/${encodeURIComponent(conversationId)}`, { headers: headers() });
  if (response.status === 401) {
    $("token-form").hidden = false;
    return;
  }
  if (!response.ok) return;
  const { messages } = await response.json();
  for (const message of messages) {
    if (message.role === "user") {
      log.append(element("div", "message user", message.parts.map((p) => p.text ?? "").join("")));
      continue;
    }
    const view = assistantView();
    for (const part of message.parts) {
      if (part.type === "text") {
        view.apply({ type: "text-start", id: "h" });
        view.apply({ type: "text-delta", id: "h", delta: part.text });
      } else if (part.type === "dynamic-tool") {
        view.apply({ type: "tool-input-available", ...part });
        if (part.state === "output-available") view.apply({ type: "tool-output-available", ...part });
        if (part.state === "output-error") view.apply({ type: "tool-output-error", ...part });
        if (part.state === "approval-requested")
          view.apply({
            type: "tool-approval-request",
            toolCallId: part.toolCallId,
            approvalId: part.approval.id,
          });
      }
    }
  }
}

$("composer").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || busy) return;
  input.value = "";
  log.append(element("div", "message user", text));
  void send({ id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text }] });
});
input.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("composer").requestSubmit();
  }
});
$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  token = $("token").value.trim();
  sessionStorage.setItem("skillrt-token", token);
  $("token-form").hidden = true;
  status.textContent = "token set";
  void loadConversation();
});
$("new-chat").addEventListener("click", () => {
  conversationId = crypto.randomUUID();
  log.replaceChildren();
  status.textContent = "";
  showConversation();
});

showConversation();
void loadConversation();
