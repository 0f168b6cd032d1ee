/** `skillrt trust [PATH|URL]`: record (or list, or revoke) the user's trust of project and remote roots. */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type UntrustedRoot, untrustedRootsOf } from "../../catalog/recorded-trust.js";
import { redactUrl } from "../../catalog/remote/redact-url.js";
import { isRemoteRootSpec } from "../../catalog/remote/root-spec.js";
import { digestRoot } from "../../catalog/root-digest.js";
import {
  defaultStateDir,
  readTrustRecords,
  recordTrust,
  revokeTrust,
  trustDirProblem,
  trustFilePath,
} from "../../catalog/trust-file.js";
import type { TrustOrigin, TrustRecord } from "../../catalog/trust-record.js";
import { configDigest, loadSkillrtConfig } from "../../config/load-skillrt-config.js";
import { mcpServerDigest } from "../../config/mcp-server-digest.js";
import { RootDigestError } from "../../errors/root-digest-error.js";
import { cliHome } from "../cli-home.js";
import { resolveCliRoots } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand } from "../define-command.js";
import { configOrigin, loadCliConfig } from "../load-cli-config.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt trust [PATH|URL|mcp:SERVER] [--list] [--revoke] [--json]

Trust a project, a remote root or an MCP server. Until trusted:
- skills under a project's skills/, .agents/skills and .claude/skills, of remote roots (URLs, git
  repositories, archives) and served by MCP servers are listed and their instructions can be loaded, but
  their scripts do not run, their allowed-tools pre-approve nothing and their !\`cmd\` lines are not run;
- a project's skillrt.config.json gives only what cannot act (roots, session filters, the model id,
  budgets, stricter settings): its MCP servers do not start, its model URL, apiKeyEnv and \${env:X}
  values are not used, and it cannot weaken approvals or the sandbox.
Trust is recorded with the digest of the content as it is now (every file a run can see, node_modules/
included): any change (an edited or added file, a new upstream, an edited config file or server entry)
needs trust again. Each run stages a private copy of the skill and runs it only when the copy still has
the trusted digest. Review before you trust.

PATH        a skill root, or a project folder (its skills/, .agents/skills, .claude/skills, its
            skillrt.config.json and the folders that file names as roots are trusted). Default: the
            current directory.
URL         a remote root as given to --root (https://…, git+https://…#ref, an archive); fetched into
            the cache when it is not there.
mcp:SERVER  the skills an mcpServers entry serves (bound to the entry as configured).

Options:
  --list     list the trusted roots and whether each still matches what was trusted (every file a
             run can see counts, node_modules/ included)
  --revoke   remove the trust of PATH|URL (default: the current directory's roots)
  --json     print JSON: {"trusted": [...]} or {"roots": [...]}
  -h, --help show this help

Trust is kept in $SKILLRT_STATE_DIR, else $XDG_STATE_HOME/skillrt, else ~/.local/state/skillrt, in
trust.json (owner-only). \`skillrt ask --trust\` trusts every root for one run without recording it;
\`skillrt chat\` asks once per untrusted root the first time it matters.

Exit codes: 0 done, 1 a root that cannot be found or fetched, or no usable trust file, 2 usage error.
`;

/** The `trust` command. */
export const trustCommand = defineCommand({
  name: "trust",
  summary: "Trust the skills of a project or remote root (scripts, allowed-tools, !`cmd`)",
  usage,
  options: { list: { type: "boolean" }, revoke: { type: "boolean" }, json: { type: "boolean" } },
  maxPositionals: 1,
  async run({ values, positionals }, io) {
    const stateDir = defaultStateDir(io.env, cliHome(io.env).home ?? os.homedir());
    if (stateDir === undefined) {
      io.stderr.write("skillrt trust: no place for the trust file (set SKILLRT_STATE_DIR or HOME).\n");
      return 1;
    }
    const problem = trustDirProblem(stateDir);
    if (problem !== undefined) {
      io.stderr.write(
        `skillrt trust: the trust file's directory cannot be used: ${problem}. Fix its owner and mode (0700) or set SKILLRT_STATE_DIR.\n`,
      );
      return 1;
    }
    if (values.list === true) return listTrust(stateDir, values.json === true, io);
    const target = positionals[0];
    const roots = await targetRoots(target, io, values.revoke === true);
    if (typeof roots === "string") {
      io.stderr.write(`skillrt trust: ${roots}\n`);
      return 1;
    }
    if (values.revoke === true) {
      const revoked = roots.filter((root) => revokeTrust(stateDir, root.origin));
      if (values.json === true) await writeJson(io.stdout, { revoked: revoked.map((r) => r.origin) });
      else if (revoked.length === 0)
        await writeOutput(io.stdout, `No trust recorded for ${roots.map((r) => r.display).join(", ")}.\n`);
      else await writeOutput(io.stdout, revoked.map((r) => `Revoked trust of ${r.display}\n`).join(""));
      return 0;
    }
    const trusted: TrustRecord[] = [];
    for (const root of roots) {
      let digest: string | undefined;
      try {
        digest = await currentDigest(root.origin, root.path, io);
      } catch (error) {
        io.stderr.write(`skillrt trust: ${root.display} was not trusted: ${(error as Error).message}\n`);
        return 1;
      }
      if (digest === undefined) {
        io.stderr.write(`skillrt trust: ${root.display} is gone.\n`);
        return 1;
      }
      trusted.push(recordTrust(stateDir, root.origin, digest));
    }
    if (values.json === true) await writeJson(io.stdout, { trusted });
    else
      await writeOutput(
        io.stdout,
        `${roots.map((r, i) => `Trusted ${r.display} (${trusted[i]?.digest.slice(0, 19)}…)\n`).join("")}` +
          `Recorded in ${trustFilePath(stateDir)}. A change to ${roots.length === 1 ? "this root" : "these roots"} needs trust again.\n`,
      );
    return 0;
  },
});

/**
 * The roots `target` names: a remote root (fetched when not cached), a project folder's roots, or a
 * folder as a root. A message for the user when there is none.
 */
async function targetRoots(
  target: string | undefined,
  io: CliIo,
  revoking: boolean,
): Promise<UntrustedRoot[] | string> {
  if (target?.startsWith("mcp:") === true) {
    const name = target.slice("mcp:".length);
    const config = await configOf(io);
    if (revoking || config.file.mcpServers?.[name] !== undefined)
      return [{ path: name, origin: { kind: "mcp", id: name }, display: target }];
    return `no MCP server '${name}' in the config (a server of a project's untrusted skillrt.config.json needs the project trusted first: skillrt trust PROJECT).`;
  }
  if (target !== undefined && isRemoteRootSpec(target)) {
    const resolved = await resolveCliRoots([target], io);
    const failed = resolved.diagnostics.find((d) => d.severity === "error");
    if (failed !== undefined) return failed.message;
    const roots = untrustedRootsOf(resolved.roots, resolved.origins);
    return roots.length > 0 ? roots : `${redactUrl(target)} did not resolve to a root.`;
  }
  const dir = path.resolve(io.cwd, target ?? ".");
  if (!revoking && !isDir(dir)) return `${dir} is not a folder.`;
  // A project folder's own config file is part of the project, and so are the folders it names as roots.
  const configFile = path.join(dir, "skillrt.config.json");
  const hasConfig = existsSync(configFile);
  const named = hasConfig ? await localRootsOf(configFile) : [];
  const project = [
    ...["skills", path.join(".agents", "skills"), path.join(".claude", "skills")].map((sub) =>
      path.join(dir, sub),
    ),
    ...named,
  ].filter((sub) => revoking || isDir(sub));
  // A folder with neither skill folders nor a config file is taken as a skill root itself.
  const folders =
    project.some(isDir) || (revoking && target === undefined) ? project : hasConfig ? [] : [dir];
  const roots: UntrustedRoot[] = [...new Set(folders)].map((folder) => ({
    path: folder,
    origin: { kind: "fs", id: folder },
    display: folder,
  }));
  if (hasConfig || (revoking && target === undefined))
    roots.push({ path: configFile, origin: configOrigin(configFile), display: configFile });
  return roots;
}

/** The local folders a project's config file names in `roots` (absolute). */
async function localRootsOf(configFile: string): Promise<string[]> {
  const { roots } = await loadSkillrtConfig({ files: [configFile] });
  return (roots ?? []).filter((spec) => path.isAbsolute(spec));
}

/** The run's config (for its MCP server entries), read once however many records ask. */
const configs = new WeakMap<CliIo, ReturnType<typeof loadCliConfig>>();
function configOf(io: CliIo): ReturnType<typeof loadCliConfig> {
  let config = configs.get(io);
  if (config === undefined) {
    config = loadCliConfig({ cwd: io.cwd, env: io.env, warn: () => undefined });
    configs.set(io, config);
  }
  return config;
}

/**
 * The digest `origin` has now: a root's content, a config file's bytes, an MCP server's entry as configured;
 * undefined when it is gone. Throws for a root that cannot be read.
 */
async function currentDigest(origin: TrustOrigin, location: string, io: CliIo): Promise<string | undefined> {
  if (origin.kind === "config") {
    const text = await readFile(location, "utf8").catch(() => undefined);
    return text === undefined ? undefined : configDigest(text);
  }
  if (origin.kind === "mcp") {
    const entry = (await configOf(io)).file.mcpServers?.[origin.id];
    return entry === undefined ? undefined : mcpServerDigest(entry);
  }
  return digestRoot(location);
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

/** `--list`: each record, and whether a local root still has the digest it was trusted with. */
async function listTrust(stateDir: string, json: boolean, io: CliIo): Promise<number> {
  // Local roots, config files and MCP server entries are compared with what they are now.
  const records = readTrustRecords(stateDir);
  const rows = await Promise.all(
    records.map(async (record) => {
      let state = "recorded";
      let problem: string | undefined;
      if (record.origin.kind !== "remote") {
        const digest = await currentDigest(record.origin, record.origin.id, io).catch((error: unknown) => {
          // A root past the digest's caps cannot be checked: say so, never call it trusted or missing.
          if (RootDigestError.isInstance(error) && error.reason !== "unreadable") problem = error.message;
          return undefined;
        });
        state =
          problem !== undefined
            ? "unchecked"
            : digest === undefined
              ? "missing"
              : digest === record.digest
                ? "trusted"
                : "changed";
      }
      return { ...record, state, ...(problem === undefined ? {} : { problem }) };
    }),
  );
  if (json) {
    await writeJson(io.stdout, { roots: rows });
    return 0;
  }
  if (rows.length === 0) {
    await writeOutput(io.stdout, "No roots trusted. Trust one with: skillrt trust [PATH|URL]\n");
    return 0;
  }
  const text = rows.map((row) => {
    const why =
      row.state === "changed"
        ? "changed since it was trusted: run skillrt trust again after reviewing it"
        : row.state === "missing"
          ? "not found"
          : row.state === "unchecked"
            ? `not trusted now, cannot be checked: ${row.problem}`
            : row.state;
    return `${row.origin.id}  ${why}  (${row.origin.kind}, ${row.trustedAt})\n`;
  });
  await writeOutput(io.stdout, text.join(""));
  return 0;
}
