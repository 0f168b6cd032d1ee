/** `skillrt trust [PATH|URL]`: record (or list, or revoke) the user's trust of project and remote roots. */
import { existsSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type UntrustedRoot, untrustedRootsOf } from "../../catalog/recorded-trust.js";
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
import type { TrustRecord } from "../../catalog/trust-record.js";
import { RootDigestError } from "../../errors/root-digest-error.js";
import { cliHome } from "../cli-home.js";
import { resolveCliRoots } from "../cli-roots.js";
import type { CliIo } from "../command.js";
import { defineCommand } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt trust [PATH|URL] [--list] [--revoke] [--json]

Trust the skills of a project or remote root. Skills found under the current directory's skills/,
.agents/skills and .claude/skills, and skills of remote roots (URLs, git repositories, archives), are
untrusted until trusted: they are listed and their instructions can be loaded, but their scripts do not
run, their allowed-tools pre-approve nothing and their !\`cmd\` lines are not run. Trust is recorded with
the content digest of the root as it is now (every file a run can see, node_modules/ included): any
change to the root (an edited or added file, a new upstream) needs trust again. Each run stages a
private copy of the skill and runs it only when the copy still has the trusted digest. Review the skills
before you trust them.

PATH  a skill root, or a project folder (its skills/, .agents/skills and .claude/skills are trusted).
      Default: the current directory.
URL   a remote root as given to --root (https://…, git+https://…#ref, an archive); fetched into the
      cache when it is not there.

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
      let digest: string;
      try {
        digest = await digestRoot(root.path);
      } catch (error) {
        io.stderr.write(`skillrt trust: ${root.display} was not trusted: ${(error as Error).message}\n`);
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
  if (target !== undefined && isRemoteRootSpec(target)) {
    const resolved = await resolveCliRoots([target], io);
    const failed = resolved.diagnostics.find((d) => d.severity === "error");
    if (failed !== undefined) return failed.message;
    const roots = untrustedRootsOf(resolved.roots, resolved.origins);
    return roots.length > 0 ? roots : `${target} did not resolve to a root.`;
  }
  const dir = path.resolve(io.cwd, target ?? ".");
  const project = ["skills", path.join(".agents", "skills"), path.join(".claude", "skills")]
    .map((sub) => path.join(dir, sub))
    .filter((sub) => revoking || isDir(sub));
  const folders = project.some(isDir) || (revoking && target === undefined) ? project : [dir];
  if (!revoking && !isDir(dir)) return `${dir} is not a folder.`;
  return folders.map((folder) => ({ path: folder, origin: { kind: "fs", id: folder }, display: folder }));
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

/** `--list`: each record, and whether a local root still has the digest it was trusted with. */
async function listTrust(stateDir: string, json: boolean, io: CliIo): Promise<number> {
  const records = readTrustRecords(stateDir);
  const rows = await Promise.all(
    records.map(async (record) => {
      let state = "recorded";
      let problem: string | undefined;
      if (record.origin.kind === "fs") {
        const digest = await digestRoot(record.origin.id).catch((error: unknown) => {
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
