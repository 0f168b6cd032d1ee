import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCatalog } from "../create-catalog.js";
import { makeTarGz, skillMd } from "./__fixtures__/make-archives.js";
import { resolveRoots } from "./resolve-roots.js";
import { parseRootSpec } from "./root-spec.js";
import { DISCOVERY_SCHEMA_0_2, parseDiscoveryIndex } from "./well-known-index.js";

let dir: string;
let cacheDir: string;
let server: Server | undefined;
let files: Map<string, Buffer>;
let hits: string[];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "skillrt-well-known-"));
  cacheDir = path.join(dir, "cache");
  files = new Map();
  hits = [];
});
afterEach(async () => {
  const s = server;
  server = undefined;
  if (s !== undefined) await new Promise((resolve) => s.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function serve(): Promise<string> {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const body = files.get(req.url ?? "");
    if (body === undefined) {
      res.writeHead(404).end("no such file");
      return;
    }
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const digest = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** A site publishing two skills: a bare SKILL.md and an archive with a script. */
function publish(overrides: { reviewDigest?: string } = {}): { index: Buffer } {
  const review = Buffer.from(skillMd("code-review", "Review code for bugs."));
  const wrangler = makeTarGz([
    { name: "SKILL.md", data: skillMd("wrangler", "Deploy Workers projects.") },
    { name: "scripts/deploy.sh", data: "echo deployed\n", mode: 0o755 },
  ]);
  files.set("/.well-known/agent-skills/code-review/SKILL.md", review);
  files.set("/.well-known/agent-skills/wrangler.tar.gz", wrangler);
  const index = Buffer.from(
    JSON.stringify({
      $schema: DISCOVERY_SCHEMA_0_2,
      skills: [
        {
          name: "code-review",
          type: "skill-md",
          description: "Review code for bugs.",
          url: "/.well-known/agent-skills/code-review/SKILL.md",
          digest: overrides.reviewDigest ?? digest(review),
        },
        {
          name: "wrangler",
          type: "archive",
          description: "Deploy Workers projects.",
          url: "wrangler.tar.gz",
          digest: digest(wrangler),
        },
        {
          name: "later",
          type: "mcp-server",
          description: "A type of a later version.",
          url: "x",
          digest: "y",
        },
      ],
    }),
  );
  files.set("/.well-known/agent-skills/index.json", index);
  return { index };
}

describe("a site's agent skills index as a root", () => {
  it("reads a site URL as its well-known index, and the index URL itself", () => {
    expect(parseRootSpec("https://example.com", "/w")).toMatchObject({
      kind: "well-known",
      location: "https://example.com/.well-known/agent-skills/index.json",
    });
    expect(parseRootSpec("https://example.com/docs/", "/w")).toMatchObject({
      kind: "well-known",
      location: "https://example.com/docs/.well-known/agent-skills/index.json",
    });
    expect(parseRootSpec("https://example.com/.well-known/agent-skills/index.json", "/w")).toMatchObject({
      kind: "well-known",
    });
    // An extension-less file is still an archive decided by its bytes.
    expect(parseRootSpec("https://example.com/download", "/w")).toMatchObject({ kind: "archive-url" });
  });

  it("fetches each listed skill checked against its digest, lists and loads them, and serves them from the cache offline", async () => {
    const base = await serve();
    const { index } = publish();
    const first = await resolveRoots([`${base}/`], { cacheDir, cwd: dir });
    expect(first.diagnostics).toEqual([]);
    const root = first.roots[0]!.path;
    expect((await readdir(root, { recursive: true })).sort()).toEqual([
      "code-review",
      "code-review/SKILL.md",
      "wrangler",
      "wrangler/SKILL.md",
      "wrangler/scripts",
      "wrangler/scripts/deploy.sh",
    ]);
    expect(first.origins.get(root)?.digest).toBe(digest(index));
    const catalog = await createCatalog({ roots: [root] });
    expect(catalog.list().map((r) => r.name)).toEqual(["code-review", "wrangler"]);
    expect((await catalog.load("wrangler")).body).toContain("Deploy Workers projects.");
    expect(await readFile(path.join(root, "wrangler", "scripts", "deploy.sh"), "utf8")).toBe(
      "echo deployed\n",
    );

    const s = server;
    server = undefined;
    await new Promise((resolve) => s?.close(resolve));
    const offline = await resolveRoots([`${base}/`], { cacheDir, cwd: dir });
    expect(offline.roots[0]?.path).toBe(root);
  });

  it("refuses the whole root when a skill's content does not match the index, naming both digests", async () => {
    const base = await serve();
    const wrong = `sha256:${"0".repeat(64)}`;
    publish({ reviewDigest: wrong });
    const resolved = await resolveRoots([`${base}/`], { cacheDir, cwd: dir });
    expect(resolved.roots).toEqual([]);
    const error = resolved.diagnostics.find((d) => d.severity === "error");
    expect(error?.code).toBe("root-digest-mismatch");
    const actual = digest(files.get("/.well-known/agent-skills/code-review/SKILL.md")!);
    expect(error?.message).toContain(`the index gives ${wrong} but the content is ${actual}`);
    expect(error?.message).toContain("skill 'code-review'");
    // Nothing of the refused root was kept.
    expect(await readdir(path.join(cacheDir, "remote", "tmp"))).toEqual([]);
  });

  it("pins the index bytes with #sha256= like any root", async () => {
    const base = await serve();
    const { index } = publish();
    const pin = createHash("sha256").update(index).digest("hex");
    const pinned = await resolveRoots([`${base}/#sha256=${pin}`], { cacheDir, cwd: dir });
    expect(pinned.diagnostics).toEqual([]);
    const other = await resolveRoots([`${base}/#sha256=${"1".repeat(64)}`], {
      cacheDir,
      cwd: dir,
      refresh: true,
    });
    expect(other.diagnostics[0]?.code).toBe("root-digest-mismatch");
  });

  it("refuses indexes it cannot trust the shape of, before fetching anything they name", () => {
    const url = "https://example.com/.well-known/agent-skills/index.json";
    const parse = (value: unknown) => () => parseDiscoveryIndex(Buffer.from(JSON.stringify(value)), url);
    expect(
      parse({ $schema: "https://schemas.agentskills.io/discovery/9.0.0/schema.json", skills: [] }),
    ).toThrow(/is not one skillrt reads/);
    expect(
      parse({
        $schema: DISCOVERY_SCHEMA_0_2,
        skills: [{ name: "../x", type: "skill-md", url: "a", digest: "b" }],
      }),
    ).toThrow(/not a valid skill name/);
    expect(
      parse({
        $schema: DISCOVERY_SCHEMA_0_2,
        skills: [
          {
            name: "x",
            type: "skill-md",
            url: "http://example.com/x/SKILL.md",
            digest: `sha256:${"a".repeat(64)}`,
          },
        ],
      }),
    ).toThrow(/is not https/);
    expect(
      parse({
        version: "0.2.0",
        skills: [{ name: "x", files: [{ path: "../SKILL.md", digest: "sha256:1" }] }],
      }),
    ).toThrow(/not a relative path/);
    // v0.1.0: paths only, fetched from <index dir>/<name>/<path>, flagged unverified.
    const old = parseDiscoveryIndex(
      Buffer.from(JSON.stringify({ skills: [{ name: "x", files: ["SKILL.md"] }] })),
      url,
    );
    expect(old.unverified).toBe(true);
    expect(old.skills[0]?.artifacts).toEqual([
      { file: "SKILL.md", url: "https://example.com/.well-known/agent-skills/x/SKILL.md" },
    ]);
  });
});
