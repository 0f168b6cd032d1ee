/**
 * What a config file from an untrusted origin (a project's `skillrt.config.json` the user has not trusted)
 * may set: the settings that only describe or narrow — roots (scanned as untrusted roots), session filters,
 * the model id and its limits, budgets, subagents, a stricter approval mode, the sandbox, fewer commands,
 * pre-render off. Everything that would start a process, choose where requests with the user's keys go,
 * name an environment variable, set what skill runs see, pre-approve a tool or weaken approvals or the
 * sandbox is left out, and
 * each omission is named so the user can be told once. The trust policy (`originMay`) decides per action.
 */
import path from "node:path";
import { originMay, type TrustAction } from "../trust/trust-action.js";
import type { ExecConfigFile, SkillConfigEntry, SkillrtConfigFile } from "./skillrt-config.js";
import type { ToolsConfig } from "./tools-config.js";

/** One setting of an untrusted file that was not applied, and the action it would have taken. */
export interface IgnoredSetting {
  /** Dotted key, e.g. `mcpServers.tracker`, `model.baseURL`, `skills.weather.env.TOKEN`. */
  key: string;
  action: TrustAction;
}

/** The settings of the files read before the restricted one, which a narrowing setting is judged against. */
export interface EarlierSettings {
  exec: ExecConfigFile;
  tools?: ToolsConfig | undefined;
}

const APPROVAL_RANK = { never: 0, unlisted: 1, always: 2 } as const;

/**
 * `config` as it applies when its origin is `trusted` (unchanged) or not (only what {@link originMay}
 * allows an untrusted origin), with the settings left out. `dir` is the file's directory (an artifacts
 * folder inside it is the project's own); `earlier` the settings of the user's files, which an untrusted
 * file may narrow but not widen.
 */
export function restrictConfig(
  config: SkillrtConfigFile,
  trusted: boolean,
  dir: string,
  earlier: EarlierSettings,
): { config: SkillrtConfigFile; ignored: IgnoredSetting[] } {
  if (trusted) return { config, ignored: [] };
  const ignored: IgnoredSetting[] = [];
  /** Whether the setting `key` may apply; records it as ignored when it may not. */
  const may = (key: string, action: TrustAction): boolean => {
    if (originMay(false, action)) return true;
    ignored.push({ key, action });
    return false;
  };
  const out: SkillrtConfigFile = { ...config };
  // The schema only places skillrt's tables in the store the user chose; the URL would choose the store.
  if (config.store?.url !== undefined && !may("store.url", "choose-endpoint")) {
    const { url: _url, ...store } = config.store;
    out.store = store;
  }
  if (config.model !== undefined) {
    const model = { ...config.model };
    if (model.provider !== undefined && !may("model.provider", "choose-endpoint")) delete model.provider;
    if (model.baseURL !== undefined && !may("model.baseURL", "choose-endpoint")) delete model.baseURL;
    if (model.apiKeyEnv !== undefined && !may("model.apiKeyEnv", "read-env")) delete model.apiKeyEnv;
    if (model.fallback !== undefined && !may("model.fallback", "choose-endpoint")) delete model.fallback;
    // Sampling settings only shape answers; headers and provider options can send the conversation (or the
    // user's key) further (a provider's own MCP servers, stored responses), so an untrusted file may not set them.
    if (model.callOptions !== undefined) {
      const { headers, providerOptions, ...sampling } = model.callOptions;
      const keep = {
        ...sampling,
        ...(headers !== undefined && may("model.callOptions.headers", "choose-endpoint") ? { headers } : {}),
        ...(providerOptions !== undefined && may("model.callOptions.providerOptions", "choose-endpoint")
          ? { providerOptions }
          : {}),
      };
      model.callOptions = keep;
    }
    out.model = model;
  }
  if (config.exec !== undefined) out.exec = restrictExec(config.exec, dir, earlier.exec, may);
  if (config.skills !== undefined) out.skills = restrictSkills(config.skills, may);
  if (config.mcpServers !== undefined) {
    for (const [name, entry] of Object.entries(config.mcpServers))
      may(`mcpServers.${name}`, "command" in entry ? "start-process" : "choose-endpoint");
    delete out.mcpServers;
  }
  if (config.tools !== undefined) out.tools = restrictTools(config.tools, earlier.tools, may);
  return { config: out, ignored };
}

type May = (key: string, action: TrustAction) => boolean;

function restrictExec(exec: ExecConfigFile, dir: string, earlier: ExecConfigFile, may: May): ExecConfigFile {
  const out: ExecConfigFile = { ...exec };
  // The sandbox is the only choice that cannot loosen isolation; repeating the user's own choice changes nothing.
  const executor = exec.executor;
  if (executor !== undefined && executor !== "sandbox" && executor !== (earlier.executor ?? "auto"))
    if (!may("exec.executor", "weaken-isolation")) delete out.executor;
  if (exec.hostDirs !== undefined && !may("exec.hostDirs", "weaken-isolation")) delete out.hostDirs;
  if (exec.artifactsDir !== undefined && !inside(dir, path.resolve(dir, exec.artifactsDir)))
    if (!may("exec.artifactsDir", "weaken-isolation")) delete out.artifactsDir;
  if (exec.allowCommands !== undefined && earlier.allowCommands !== undefined) {
    // A list of its own narrows "every command" but may not add to the user's list.
    const allowed = new Set(earlier.allowCommands);
    const kept = exec.allowCommands.filter((c) => allowed.has(c));
    if (kept.length < exec.allowCommands.length) may("exec.allowCommands", "weaken-isolation");
    out.allowCommands = kept.length > 0 ? kept : [...earlier.allowCommands];
  }
  // Commands the user denies stay denied: the lists are joined, not replaced.
  if (exec.denyCommands !== undefined && earlier.denyCommands !== undefined)
    out.denyCommands = [...new Set([...earlier.denyCommands, ...exec.denyCommands])];
  if (exec.requireLoaded === false && earlier.requireLoaded === true)
    if (!may("exec.requireLoaded", "weaken-isolation")) delete out.requireLoaded;
  if (exec.shellPreRender === true && earlier.shellPreRender === false)
    if (!may("exec.shellPreRender", "pre-render")) delete out.shellPreRender;
  return out;
}

function restrictSkills(
  skills: Record<string, SkillConfigEntry>,
  may: May,
): Record<string, SkillConfigEntry> {
  const out: Record<string, SkillConfigEntry> = {};
  for (const [skill, entry] of Object.entries(skills)) {
    if (entry.env === undefined) {
      out[skill] = entry;
      continue;
    }
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(entry.env))
      if (may(`skills.${skill}.env.${name}`, value.includes("${env:") ? "read-env" : "set-run-env"))
        env[name] = value;
    out[skill] = { ...entry, env };
  }
  return out;
}

function restrictTools(tools: ToolsConfig, earlier: ToolsConfig | undefined, may: May): ToolsConfig {
  const out: ToolsConfig = { ...tools };
  if (tools.gating === "open" && !may("tools.gating", "weaken-approval")) delete out.gating;
  const floor = APPROVAL_RANK[earlier?.approval ?? "unlisted"];
  if (tools.approval !== undefined && APPROVAL_RANK[tools.approval] < floor)
    if (!may("tools.approval", "weaken-approval")) delete out.approval;
  if (tools.allow !== undefined && !may("tools.allow", "pre-approve-tools")) delete out.allow;
  return out;
}

function inside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
