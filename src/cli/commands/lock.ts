/** `skillrt lock`: pin every remote root to the content it resolves to, in `skillrt.lock.json`. */
import { ROOTS_LOCK_FILE, readRootsLock, writeRootsLock } from "../../catalog/remote/roots-lock.js";
import { resolveCliRoots, rootOption } from "../cli-roots.js";
import { defineCommand } from "../define-command.js";
import { writeJson, writeOutput } from "../write-output.js";

const usage = `Usage: skillrt lock [--update] [--root URL]... [--json]

Pins every remote root (the config files' roots, or --root; https:// archives and SKILL.md URLs,
git+https://…#REF and git+file://…#REF repositories, local archives) to the content it resolves to —
its SHA-256, or its git commit — in ./${ROOTS_LOCK_FILE}. While the lock is there, every command
resolves those roots to the pinned content (the cached copy, or a fetch that must match), so a changed
upstream is not picked up, even with --refresh, until \`skillrt lock --update\`. Commit the lock with
the project.

Options:
  --update     fetch every remote root again and pin what it resolves to now
  --root URL   lock URL instead of the configured roots (repeatable)
  --json       print {"file": …, "roots": {SOURCE: DIGEST}}
  -h, --help   show this help

Exit codes: 0 written, 1 a root could not be had (nothing written), 2 usage error.
`;

/** The `lock` command. */
export const lockCommand = defineCommand({
  name: "lock",
  summary: "Pin every remote root to its resolved commit or digest (skillrt.lock.json)",
  usage,
  options: { root: rootOption.root, update: { type: "boolean" }, json: { type: "boolean" } },
  maxPositionals: 0,
  async run({ values }, io) {
    const update = values.update === true;
    const existing = update ? undefined : await readRootsLock(io.cwd);
    if (existing !== undefined && !(existing instanceof Map)) {
      io.stderr.write(`skillrt lock: ${existing.error}\n`);
      return 1;
    }
    const resolved = await resolveCliRoots(values.root, io, update, undefined, existing ?? null);
    const errors = resolved.diagnostics.filter((d) => d.severity === "error");
    for (const d of resolved.diagnostics) io.stderr.write(`skillrt lock: ${d.severity}: ${d.message}\n`);
    if (errors.length > 0) {
      io.stderr.write(`skillrt lock: ${ROOTS_LOCK_FILE} not written.\n`);
      return 1;
    }
    const pins = new Map([...resolved.origins.values()].map((origin) => [origin.source, origin.digest]));
    const file = await writeRootsLock(io.cwd, pins);
    if (values.json === true) {
      await writeJson(io.stdout, { file, roots: Object.fromEntries(pins) });
      return 0;
    }
    const lines = [...pins].map(([source, digest]) => `${source}  ${digest}\n`);
    await writeOutput(
      io.stdout,
      `${lines.join("")}${pins.size === 0 ? "No remote roots to lock; " : `Locked ${pins.size} root${pins.size === 1 ? "" : "s"} in `}${file}.\n`,
    );
    return 0;
  },
});
