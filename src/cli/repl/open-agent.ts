/** Opens a conversation for `ask` / `chat`: model, catalog, skill session, tools and store. */
import { randomUUID } from "node:crypto";
import type { ModelMessage } from "ai";
import { createCatalog } from "../../catalog/create-catalog.js";
import type { Catalog } from "../../catalog/types.js";
import { createSkillSession } from "../../context/create-skill-session.js";
import { restoreSkillSession } from "../../context/restore-skill-session.js";
import type { Placement } from "../../context/session-types.js";
import type { SkillSession } from "../../context/skill-session.js";
import { compactHistory } from "../../engine/compact-history.js";
import type { EngineEvent, EngineEventListener } from "../../engine/engine-event.js";
import type { EngineSkillContext } from "../../engine/engine-skill-context.js";
import { fromSkillSession } from "../../engine/from-skill-session.js";
import { loadModelConfig, type ModelFlags } from "../../engine/load-model-config.js";
import { describeModel } from "../../engine/model-config.js";
import { ProviderError } from "../../engine/provider-error.js";
import { resolveModel } from "../../engine/resolve-model.js";
import type { RetryNotice } from "../../engine/retry-fetch.js";
import { runAgent } from "../../engine/run-agent.js";
import { loadConversation, saveConversation } from "../../engine/saved-conversation.js";
import { autoSelectModeFrom, selectSkills } from "../../engine/select-skills.js";
import type { ExecutorChoice } from "../../exec/create-executor.js";
import type { SkillrtConfig } from "../../exec/load-skillrt-config.js";
import { createSqliteStore } from "../../store/create-sqlite-store.js";
import { defaultStorePath } from "../../store/default-store-path.js";
import type { SessionStore } from "../../store/session-store.js";
import type { ProfileName } from "../../tools/profile-types.js";
import { cliCatalogOptions } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import type { CliRunSettings, CliSessionSettings } from "../load-cli-config.js";
import type { AgentHandle } from "./agent-handle.js";
import { createSkillBodyCosts } from "./skill-body-costs.js";
import { skillToolsFor } from "./skill-tools-for.js";

/** Store namespace of saved conversations. */
export const CONVERSATION_NAMESPACE = "conversation";

/** What `ask`/`chat` were asked for (already validated). */
export interface OpenAgentOptions {
  io: CliIo;
  roots: string[] | undefined;
  sessionId: string | undefined;
  placement: Placement;
  profile: ProfileName;
  executor: ExecutorChoice;
  catalogBudget: number | undefined;
  maxSteps: number | undefined;
  flags: ModelFlags;
  /** Called before a provider request is retried. */
  onRetry?: (notice: RetryNotice) => void;
  /** Store to use instead of `.skillrt/sessions.db` under the cwd. */
  store?: SessionStore;
  /** The config files as read (`loadCliConfig`); default: read by `loadModelConfig`. */
  configFile?: SkillrtConfig;
  /** `activeSkills`, `allow`, `deny` of the skill session (config `session` section and flags). */
  skillFilters?: CliSessionSettings;
  /** Settings of `skill_run` (config `exec` section). Default: host inputs from the cwd only. */
  run?: CliRunSettings;
}

/** Host instructions placed before the skill context. */
const HOST_SYSTEM =
  "You are a helpful assistant running in skillrt. Use the skills below when they fit the user's request; " +
  "load a skill before following it, and prefer running its scripts to guessing their output.";

async function buildSession(
  catalog: Catalog,
  options: OpenAgentOptions,
  id: string,
  contextWindow: number | undefined,
  snapshot: unknown,
): Promise<SkillSession> {
  const common = {
    catalog,
    ...options.skillFilters,
    // Only a window the user or the config gave: an unknown one keeps the session's 2,000-token catalog budget.
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...(options.catalogBudget === undefined ? {} : { catalogBudget: options.catalogBudget }),
  };
  if (snapshot !== undefined && snapshot !== null) return restoreSkillSession(snapshot, common);
  const session = createSkillSession({ ...common, id, placement: options.placement });
  await session.init();
  return session;
}

/** `$name` mentions in a message that name skills of the catalog, in order, without repeats. */
export function mentionedSkills(text: string, known: ReadonlySet<string>): string[] {
  const names = [...text.matchAll(/(?:^|[\s(])\$([a-z0-9][a-z0-9-]*)/g)].map((m) => m[1] ?? "");
  return [...new Set(names.filter((n) => known.has(n)))];
}

/**
 * Opens (or resumes, with `sessionId`) a conversation. Throws `SkillrtError` (`config-invalid`) for a
 * bad model configuration and `store-error` for an unreadable saved conversation.
 */
export async function openAgent(options: OpenAgentOptions): Promise<AgentHandle> {
  const { io } = options;
  const config = await loadModelConfig({
    flags: options.flags,
    env: io.env,
    cwd: io.cwd,
    ...(options.configFile === undefined ? {} : { config: options.configFile }),
  });
  const sessionWindow = config.contextWindowConfigured === true ? config.contextWindow : undefined;
  const model = resolveModel(config, options.onRetry === undefined ? {} : { onRetry: options.onRetry });
  const catalog = await createCatalog(cliCatalogOptions(options.roots, io));
  const store = options.store ?? createSqliteStore({ path: defaultStorePath(io.cwd) });
  let id = options.sessionId ?? randomUUID();
  const saved = await loadConversation(store, id, CONVERSATION_NAMESPACE);
  let history: ModelMessage[] = saved?.messages ?? [];
  let session = await buildSession(catalog, options, id, sessionWindow, saved?.skills);
  const bodyCosts = createSkillBodyCosts();
  let disposeTools = async (): Promise<void> => {};
  const open = async (s: SkillSession): Promise<EngineSkillContext> => {
    const skillTools = await skillToolsFor(s, {
      profile: options.profile,
      executor: options.executor,
      run: options.run ?? { hostDirs: [io.cwd] },
    });
    disposeTools = skillTools.dispose;
    return fromSkillSession(s, skillTools);
  };
  let context = await open(session);
  const modelInfo = {
    provider: config.provider,
    modelId: config.modelId,
    ...(config.baseURL === undefined ? {} : { baseURL: config.baseURL }),
  };

  const save = (): Promise<void> =>
    saveConversation(
      store,
      id,
      { messages: history, skills: context.snapshot(), model: modelInfo },
      CONVERSATION_NAMESPACE,
    );

  const emitLoads = (
    outcomes: Awaited<ReturnType<EngineSkillContext["loadSkill"]>>[],
    by: "user" | "select",
    onEvent: EngineEventListener,
  ): void => {
    for (const outcome of outcomes) {
      if (outcome.ok) {
        history.push(...outcome.messages);
        onEvent({ type: "skill-load", step: 0, name: outcome.name, tokens: outcome.tokens, by });
      } else {
        onEvent({ type: "error", step: 0, message: outcome.message, fatal: false });
      }
    }
  };

  return {
    config,
    model,
    sessionId: () => id,
    context: () => context,
    skillBodyTokens: (names) => bodyCosts.measure(session, names),
    history: () => history,
    append(messages) {
      history.push(...messages);
    },
    async runTurn(text, turn) {
      // `$name` is the user asking for a skill: only user-invocable ones (like `/skill`).
      const known = new Set(
        context
          .listSkills()
          .filter((s) => s.userInvocable)
          .map((s) => s.name),
      );
      const mentions = mentionedSkills(text, known).filter((n) => !context.loadedSkills().includes(n));
      const mentionLoads = [];
      for (const name of mentions) mentionLoads.push(await context.loadSkill(name, { by: "user" }));
      emitLoads(mentionLoads, "user", turn.onEvent);
      const mode = autoSelectModeFrom(io.env["SKILLS_AUTO_SELECT"]);
      if (mode !== "off") {
        const maxActive = Number.parseInt(io.env["SKILLS_MAX_ACTIVE"] ?? "", 10);
        const selection = await selectSkills({
          mode,
          context,
          message: text,
          model,
          ...(Number.isInteger(maxActive) && maxActive > 0 ? { maxActive } : {}),
          ...(turn.abortSignal === undefined ? {} : { abortSignal: turn.abortSignal }),
        });
        emitLoads(selection.loads, "select", turn.onEvent);
      }
      const compaction = await compactHistory({
        model,
        messages: history,
        countTokens: (t) => session.counter.count(t),
        threshold: Math.floor(config.contextWindow * 0.7),
        context,
        ...(turn.abortSignal === undefined ? {} : { abortSignal: turn.abortSignal }),
      }).catch(() => undefined);
      if (compaction?.compacted === true) {
        history = compaction.messages;
        session.refreshCatalog();
        const event: EngineEvent = {
          type: "history-compact",
          step: 0,
          removedMessages: compaction.removedMessages,
          tokensBefore: compaction.tokensBefore,
          tokensAfter: compaction.tokensAfter,
        };
        turn.onEvent(event);
      }
      history.push({ role: "user", content: text });
      try {
        const result = await runAgent({
          model,
          context,
          system: HOST_SYSTEM,
          messages: history,
          modelLabel: describeModel(config),
          onEvent: turn.onEvent,
          ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
          ...(turn.abortSignal === undefined ? {} : { abortSignal: turn.abortSignal }),
        });
        history.push(...result.messages);
        await save();
        return result;
      } catch (error) {
        if (ProviderError.isInstance(error)) history.push(...error.messages);
        await save();
        throw error;
      }
    },
    save,
    async reset() {
      id = randomUUID();
      history = [];
      await disposeTools();
      session = await buildSession(catalog, { ...options }, id, sessionWindow, undefined);
      context = await open(session);
    },
    listSessions: () => store.list({ namespace: CONVERSATION_NAMESPACE }),
    async close() {
      await disposeTools();
      await store.close();
    },
  };
}
