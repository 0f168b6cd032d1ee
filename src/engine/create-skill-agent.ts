/**
 * `createSkillAgent`: builds a {@link SkillAgent} from its parts — a model, a catalog and, when given, a
 * store, tool sources and an executor. Pure composition: nothing is read from the working directory, HOME
 * or the environment (`fromEnvironment()` is the Node preset that gathers those).
 */

import { randomUUID } from "node:crypto";
import { context } from "@opentelemetry/api";
import type { ModelMessage } from "ai";
import { withMcpSkills } from "../catalog/mcp-source/with-mcp-skills.js";
import { SkillrtError } from "../errors/skillrt-error.js";
import type { KnownFiles } from "../exec/workspace-files.js";
import type { SessionStore } from "../store/session-store.js";
import type { SkillTools } from "../tools/create-skill-tools.js";
import { declaredMcpServers } from "../tools/declared-mcp-servers.js";
import type { ToolProgress } from "../tools/tool-progress.js";
import { createAgentTelemetry, type TurnSpans, telemetryTracer } from "./agent-telemetry.js";
import { type AgentTurn, startAgentTurn } from "./agent-turn.js";
import { attachFiles } from "./attach-files.js";
import { type CallOptions, mergeCallOptions } from "./call-options.js";
import { agentDefinitions, checkParts } from "./check-agent-options.js";
import {
  keepsFiles,
  notKeptText,
  restoreConversationFiles,
  type SavedWorkspace,
  workspaceFileLimits,
} from "./conversation-files.js";
import { createConversationSaver, type SavedParts } from "./conversation-saver.js";
import { createDelegator } from "./delegate-to-agent.js";
import { createDelegationTool } from "./delegation-tool.js";
import { type EngineEvent, innermostEvent } from "./engine-event.js";
import { forkOnLoad } from "./fork-skill.js";
import { chooseExecutor, openSkillLayer, runSettingsWith } from "./open-skills.js";
import { openStoreUrl } from "./open-store-url.js";
import { openToolSources, type ToolSources } from "./open-tool-sources.js";
import { runTurn } from "./run-turn.js";
import { loadConversation } from "./saved-conversation.js";
import type { SendOptions, SkillAgent, SkillAgentOptions, TurnResult } from "./skill-agent.js";
import { userSkillLoads } from "./user-skill-loads.js";

/** Store namespace of saved conversations. */
export const CONVERSATION_NAMESPACE = "conversation";

/** Host instructions placed before the skill context when none are given. */
export const DEFAULT_INSTRUCTIONS =
  "You are a helpful assistant running in skillrt. Use the skills below when they fit the user's request; " +
  "load a skill before following it, and prefer running its scripts to guessing their output.";

/** The conversation-specific parts, rebuilt by `reset()`. */
interface Conversation extends SavedParts {
  skillTools: SkillTools;
  dispose(): Promise<void>;
}

/**
 * Opens (or, with a `sessionId` saved in `store`, resumes) a conversation. Throws `SkillrtError`
 * (`invalid-argument`) without a model or catalog, (`store-error`) for an unreadable saved conversation.
 * Parts the agent owns (`closeStore`, `closeToolSources`, sources it opened) are closed when it fails.
 */
export async function createSkillAgent(options: SkillAgentOptions): Promise<SkillAgent> {
  checkParts(options);
  const owned: Array<() => Promise<void>> = [];
  const store = typeof options.store === "string" ? openStoreUrl(options.store, options.cwd) : options.store;
  if (store !== undefined && (options.closeStore === true || typeof options.store === "string")) {
    owned.push(() => store.close());
  }
  try {
    const { store: _url, ...parts } = options;
    return await composeAgent({ ...parts, ...(store === undefined ? {} : { store }) }, owned);
  } catch (error) {
    for (const close of owned.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

async function composeAgent(
  options: Omit<SkillAgentOptions, "store"> & { store?: SessionStore },
  owned: Array<() => Promise<void>>,
): Promise<SkillAgent> {
  const { model, modelConfig } = options;
  const env = options.env ?? {};
  // Only a window the caller or the config gave: an unknown one keeps the session's 2,000-token catalog budget.
  const sessionWindow =
    options.contextWindow ??
    (modelConfig?.contextWindowConfigured === true ? modelConfig.contextWindow : undefined);
  const contextWindow = sessionWindow ?? modelConfig?.contextWindow ?? 128_000;
  // The turn's limits: the options', else the configured ones (the engine's defaults apply when neither is).
  const maxOutputTokens = options.maxOutputTokens ?? modelConfig?.maxOutputTokens;
  const turnTimeoutMs = options.turnTimeoutMs ?? modelConfig?.turnTimeoutMs;
  const store = options.store;
  const executor = chooseExecutor(options.executor ?? false);
  const listeners = new Set<(event: EngineEvent) => void>();
  if (options.onEvent !== undefined) listeners.add(options.onEvent);
  // Tool sources (MCP servers) run while the agent does; a failure is reported once, as an event of the
  // running turn or else of the next one.
  const pending: EngineEvent[] = [];
  let turnEmit: ((event: EngineEvent) => void) | undefined;
  const toolSources: ToolSources =
    options.toolSources ??
    openToolSources(options, { env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  if (options.toolSources === undefined || options.closeToolSources === true)
    owned.push(() => toolSources.close());
  // Skills the MCP servers serve (SEP-2640) join the catalog as their servers start.
  const catalog = withMcpSkills(options.catalog, toolSources.skills);
  const stopListening = toolSources.onError(({ source, message }) => {
    const event: EngineEvent = { type: "tool-source-error", step: 0, source, message };
    if (turnEmit === undefined) pending.push(event);
    else turnEmit(event);
  });
  owned.push(async () => stopListening());
  // Progress of a running tool call (an MCP server's notifications, a skill_run's output) joins the turn's
  // events, on the step that called the tool.
  let currentStep = 0;
  const emitProgress = (progress: ToolProgress): void => {
    turnEmit?.({ type: "tool-progress", step: currentStep, ...progress });
  };
  const stopProgress = toolSources.onProgress(emitProgress);
  owned.push(async () => stopProgress());

  const modelInfo =
    modelConfig === undefined
      ? typeof model === "string"
        ? { provider: "gateway", modelId: model }
        : { provider: model.provider, modelId: model.modelId }
      : {
          provider: modelConfig.provider,
          modelId: modelConfig.modelId,
          ...(modelConfig.baseURL === undefined ? {} : { baseURL: modelConfig.baseURL }),
        };

  const telemetry = createAgentTelemetry(telemetryTracer(options), {
    agentName: options.name ?? "skillrt",
    model: modelInfo,
  });
  // The running turn's spans (a subagent's span is a child of the tool call that started it).
  let turnSpans: TurnSpans | undefined;

  const delegator = createDelegator({
    options,
    traceContext: (callId) => turnSpans?.toolContext(callId),
    definitions: agentDefinitions(options),
    create: createSkillAgent,
    executor,
    toolSources,
    conversation: () => conversation,
    emit: () => turnEmit,
  });
  const delegationTools = createDelegationTool(delegator, options.profile);
  const hostTools =
    Object.keys(delegationTools).length === 0 ? options.tools : { ...options.tools, ...delegationTools };
  let delegations = 0;

  // Workspace files are kept with a store that has blobs, unless `workspaceFiles: false`.
  const fileLimits =
    options.workspaceFiles === false ? undefined : workspaceFileLimits(options.workspaceFiles);
  const filesStore = fileLimits !== undefined && keepsFiles(store) ? store : undefined;
  // A workspace the caller gave (`run.environment.workspace`) is the caller's to keep: saved, never written over.
  const givenWorkspace = runSettingsWith(options.run, []).environment?.workspace !== undefined;

  const open = async (
    id: string,
    snapshot: unknown,
    history: ModelMessage[],
    files?: SavedWorkspace,
  ): Promise<Conversation> => {
    const layerOptions = {
      ...options,
      // host:// inputs only from a directory the caller named.
      run: runSettingsWith(options.run, options.cwd === undefined ? [] : [options.cwd]),
      ...(sessionWindow === undefined ? {} : { contextWindow: sessionWindow }),
      // SKILLS_MAX_ACTIVE caps the skills active at once, for the model's loads too (not only the pre-pass).
      ...(options.select?.maxActive === undefined ? {} : { maxActive: options.select.maxActive }),
      // Requirements are checked against the environment the caller gave, never the process's own.
      session: { requirementsEnv: options.env ?? (false as const), ...options.session },
    };
    const layer = await openSkillLayer(catalog, layerOptions, {
      id,
      snapshot,
      executor,
      toolSources,
      onProgress: emitProgress,
    });
    forkOnLoad(layer.skillTools, { delegator, catalog, session: layer.session });
    // The files an earlier turn left, back in this (fresh) workspace; what could not be is said at the next turn.
    const notKept = [...(files?.notKept ?? [])];
    const known: KnownFiles = new Map();
    if (files !== undefined && filesStore !== undefined && layer.workspace !== undefined && !givenWorkspace) {
      const problems = await restoreConversationFiles(filesStore, layer.workspace, files, known).catch(
        async (error: unknown) => {
          await layer.dispose();
          throw error;
        },
      );
      if (problems.length > 0) {
        notKept.push(...problems);
        pending.push({
          type: "files-not-kept",
          step: 0,
          files: problems,
          message: `workspace files of the conversation not restored: ${notKeptText(problems)}`,
        });
      }
    }
    return { id, history, ...layer, files, notKept, known };
  };

  const firstId = options.sessionId ?? randomUUID();
  const saved =
    store === undefined ? undefined : await loadConversation(store, firstId, CONVERSATION_NAMESPACE);
  let conversation = await open(firstId, saved?.skills, saved?.messages ?? [], saved?.workspace);
  owned.push(() => conversation.dispose());
  /** Store version of the conversation as this agent last read or wrote it (0: never saved). */
  /** Whether this agent made the conversation's id (not `options.sessionId`): no other engine knows it until saved. */
  let ownId = options.sessionId === undefined;
  let running = false;
  // Started last, so nothing above can fail with servers left running. The aworld profile starts the servers
  // its skills' tool_list names (AWorld's rule); a named server that is not configured is reported once.
  const declared =
    (options.profile ?? "skillrt") === "aworld"
      ? declaredMcpServers(
          catalog.list(),
          toolSources.servers().map((s) => s.name),
        )
      : undefined;
  for (const message of declared?.missing ?? [])
    pending.push({ type: "tool-source-error", step: 0, source: "mcp", message });
  await toolSources.start(declared?.only === undefined ? {} : { only: declared.only });

  // Saves refuse to overwrite a conversation another engine saved meanwhile (StoreConflictError).
  const saver =
    store === undefined
      ? undefined
      : createConversationSaver({
          store,
          namespace: CONVERSATION_NAMESPACE,
          model: modelInfo,
          conversation: () => conversation,
          ...(filesStore === undefined || fileLimits === undefined
            ? {}
            : { files: { store: filesStore, limits: fileLimits } }),
          ...(options.saveRetryMs === undefined ? {} : { retryMs: options.saveRetryMs }),
          version: saved?.version ?? 0,
        });
  const savedVersion = (): number => saver?.version ?? 0;
  const save = async (): Promise<void> => {
    await saver?.save();
  };
  const userLoads = userSkillLoads({ conversation: () => conversation, catalog, delegator, save });

  /** How this agent takes a conversation's lock: its namespace, its wait, and what may cancel the wait. */
  const lockOptions = (abortSignal: AbortSignal | undefined) => ({
    namespace: CONVERSATION_NAMESPACE,
    ...(options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs }),
    ...(abortSignal === undefined ? {} : { abortSignal }),
  });
  /**
   * Holds the conversation's store lock for a turn (another engine on the same session waits, bounded by
   * `lockTimeoutMs`, then fails with a SessionBusyError) and picks up turns saved meanwhile by others.
   */
  const lockTurn = async (
    abortSignal: AbortSignal | undefined,
  ): Promise<(() => Promise<void>) | undefined> => {
    if (store === undefined) return undefined;
    const lock = await store.lockSession(conversation.id, lockOptions(abortSignal));
    try {
      const stored = await store.get(conversation.id, CONVERSATION_NAMESPACE);
      if ((stored?.version ?? 0) !== savedVersion()) {
        const fresh = await loadConversation(store, conversation.id, CONVERSATION_NAMESPACE);
        await conversation.dispose();
        conversation = await open(conversation.id, fresh?.skills, fresh?.messages ?? [], fresh?.workspace);
        if (saver !== undefined) saver.version = fresh?.version ?? 0;
      }
    } catch (error) {
      await lock.release();
      throw error;
    }
    return () => lock.release();
  };
  /**
   * The store, when the conversation's lock waits for its first save: this agent made its id and never saved it,
   * so no other engine knows it yet. The lock is then taken just before that save (without the turn's
   * abort signal, so an aborted turn is still saved) instead of before the turn, and the first model
   * request does not wait for the store. Another engine that saved under the id meanwhile makes that save
   * fail (StoreConflictError).
   */
  const storeLockedAtFirstSave = () => (ownId && savedVersion() === 0 ? store : undefined);

  /** Gives `event` to the subscribers, keeping what they return for a turn-end (its own or a subagent's). */
  const notify = (event: EngineEvent, ending: unknown[]): void => {
    const end = innermostEvent(event).type === "turn-end";
    for (const listener of listeners) {
      const returned: unknown = listener(event);
      if (end) ending.push(returned);
    }
  };

  const send = (input: string, sendOptions: SendOptions = {}): AgentTurn<TurnResult> =>
    startAgentTurn(async (emitTurn) => {
      if (running) {
        throw new SkillrtError({
          code: "agent-busy",
          message: "A turn is already running on this agent; wait for it to finish.",
        });
      }
      running = true;
      let unlock: (() => Promise<void>) | undefined;
      const instructions = options.instructions ?? DEFAULT_INSTRUCTIONS;
      // What the subscribers returned for a turn-end, this turn's and its subagents' (a recorder's write).
      const ending: unknown[] = [];
      const emit = (event: EngineEvent): void => {
        if (event.type === "step-start") currentStep = event.step;
        turnSpans?.onEvent(event);
        // turn-start and turn-end are the subscribers' (the caller of send knows when its turn starts and ends).
        if (!isTurnBookend(event)) {
          emitTurn(event);
          sendOptions.onEvent?.(event);
        }
        notify(event, ending);
      };
      let started = false;
      let failure: { error: unknown } | undefined;
      try {
        const lockLater = storeLockedAtFirstSave();
        if (lockLater === undefined) unlock = await lockTurn(sendOptions.abortSignal);
        const attached =
          sendOptions.files === undefined || sendOptions.files.length === 0
            ? ""
            : await attachFiles(conversation.workspace, sendOptions.files, options.cwd);
        // Files the last save left out (or that could not be restored), told to the model once.
        const filesNote =
          conversation.notKept.length === 0
            ? ""
            : `\n\nWorkspace files not kept from earlier turns: ${notKeptText(conversation.notKept.splice(0))}`;
        started = true;
        // Subagents started during this turn (across all nesting) count from zero.
        delegator.beginTurn();
        const { id: sessionId } = conversation;
        const spans = telemetry.startTurn({
          sessionId,
          session: conversation.session,
          parent: sendOptions.traceContext,
        });
        turnSpans = spans;
        const callOptions = mergeCallOptions(
          mergeCallOptions(modelConfig?.callOptions as CallOptions | undefined, options.callOptions),
          sendOptions.callOptions,
        );
        emit({
          type: "turn-start",
          step: 0,
          sessionId,
          text: input,
          between: userLoads.takeBetween(),
          ...(spans.traceId === undefined ? {} : { traceId: spans.traceId }),
        });
        // Tool sources that failed or stopped since the last turn, reported once.
        for (const event of pending.splice(0)) emit(event);
        turnEmit = emit;
        const tracing = {
          tool: telemetry.tool,
          modelCall: (step: number) => spans.modelCall(step, callOptions),
        };
        return await context.with(spans.context, () =>
          runTurn({
            input: input + attached + filesNote,
            ...(sendOptions.approvals === undefined ? {} : { approvals: sendOptions.approvals }),
            ...(callOptions === undefined ? {} : { callOptions }),
            tracing,
            promptCache: options.promptCache !== false,
            conversation,
            model,
            contextWindow,
            emit,
            save: () =>
              saver?.saveTurn({
                emit,
                step: () => currentStep,
                // A conversation this agent made is locked at its first save (see storeLockedAtFirstSave).
                beforeWrite: async () => {
                  if (lockLater === undefined || unlock !== undefined) return;
                  const lock = await lockLater.lockSession(conversation.id, lockOptions(undefined));
                  unlock = () => lock.release();
                },
              }) ?? Promise.resolve(),
            instructions,
            ...(options.select === undefined ? {} : { select: options.select }),
            ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
            ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
            ...(turnTimeoutMs === undefined ? {} : { turnTimeoutMs }),
            ...(hostTools === undefined ? {} : { tools: hostTools }),
            ...(modelConfig === undefined ? {} : { modelConfig }),
            ...(sendOptions.abortSignal === undefined ? {} : { abortSignal: sendOptions.abortSignal }),
          }),
        );
      } catch (error) {
        failure = { error };
        throw error;
      } finally {
        // An aborted or failed turn leaves no child running, and their last events in this turn.
        await delegator.idle();
        if (started) {
          const { id: sessionId, history, session } = conversation;
          const error = failure?.error;
          emit({
            type: "turn-end",
            step: currentStep,
            sessionId,
            ...(failure === undefined
              ? {}
              : { error: error instanceof Error ? error.message : String(error) }),
            conversation: () => ({ history, session, instructions }),
          });
          await Promise.allSettled(ending);
        }
        turnSpans?.end(failure?.error);
        turnSpans = undefined;
        await unlock?.();
        running = false;
        turnEmit = undefined;
      }
    });

  return {
    get sessionId() {
      return conversation.id;
    },
    get session() {
      return conversation.session;
    },
    get skillTools() {
      return conversation.skillTools;
    },
    get workspace() {
      return conversation.workspace;
    },
    hostTools: hostTools ?? {},
    delegate(name, task, delegateOptions = {}) {
      // Outside a turn the child's events go to the subscribers directly (it settles after their turn-end's).
      const ending: unknown[] = [];
      const onEvent = (event: EngineEvent): void => {
        delegateOptions.onEvent?.(event);
        if (turnEmit === undefined) notify(event, ending);
      };
      // Outside a turn, each call counts its own subagents (inside one, the turn's count goes on).
      if (!running) delegator.beginTurn();
      const run = delegator.run(name, task, `delegate-${++delegations}`, { ...delegateOptions, onEvent });
      return run.finally(() => Promise.allSettled(ending));
    },
    send,
    loadSkill(name, loadOptions = {}) {
      // A `context: fork` skill the user loads between turns counts its subagents afresh, as delegate() does,
      // and its child's events go to the subscribers directly, as delegate()'s do.
      if (!running) delegator.beginTurn();
      const ending: unknown[] = [];
      const onEvent = (event: EngineEvent): void => {
        loadOptions.onEvent?.(event);
        if (turnEmit !== undefined) return;
        notify(event, ending);
        // The child's start and end join the next turn's timeline, as a model-started child's do in its turn.
        if (event.type === "agent-start" || event.type === "agent-end") userLoads.noteBetween(event);
      };
      return userLoads.loadSkill(name, { ...loadOptions, onEvent }).finally(() => Promise.allSettled(ending));
    },
    unloadSkill: userLoads.unloadSkill,
    history: () => conversation.history,
    async reset() {
      userLoads.clear();
      await conversation.dispose();
      conversation = await open(randomUUID(), undefined, []);
      if (saver !== undefined) saver.version = 0;
      ownId = true;
    },
    save,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      // What the agent owns, last opened first: the workspace, the tool sources, then the store.
      for (const close of owned.splice(0).reverse()) await close();
    },
  };
}

/** A turn's start or end (its own or a subagent's): an event for the subscribers, not for the turn's stream. */
function isTurnBookend(event: EngineEvent): boolean {
  const inner = innermostEvent(event);
  return inner.type === "turn-start" || inner.type === "turn-end";
}
