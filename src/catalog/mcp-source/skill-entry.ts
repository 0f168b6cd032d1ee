/**
 * The wire shapes of SEP-2640 (`io.modelcontextprotocol/skills`) a client reads: a skill entry
 * (`{ uri, frontmatter, resources }`), a `skills/list` page, a `skills/get` result, a `resources/read`
 * result and a `resources/directory/read` page. Parsed leniently (unknown fields pass), checked strictly
 * where the client relies on them (digest format, a `SKILL.md` URI).
 */
import { z } from "zod";

/**
 * One file of a skill, the SHA-256 of its raw bytes (`sha256:<64 lowercase hex>`) and their length
 * (`size`, required by the final extension; a server of an earlier draft may leave it out).
 */
export const SkillResourceDigest = z.looseObject({
  uri: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "a digest is sha256:<64 lowercase hex>"),
  size: z.number().int().nonnegative().optional(),
});
export type SkillResourceDigest = z.infer<typeof SkillResourceDigest>;

/**
 * A skill entry: its SKILL.md's URI, the frontmatter verbatim as JSON, and every file with its digest and
 * size — or `"dynamic"` for a skill whose content is generated (no digests: it is listed, never loaded).
 */
export const SkillEntry = z.looseObject({
  uri: z.string().refine((uri) => uri.endsWith("/SKILL.md"), "a skill entry's uri names its SKILL.md"),
  frontmatter: z.looseObject({ name: z.string().min(1), description: z.string() }),
  resources: z.union([z.array(SkillResourceDigest), z.literal("dynamic")]).optional(),
});
export type SkillEntry = z.infer<typeof SkillEntry>;

/** A `skills/list` page: entries are checked one by one (a bad entry does not sink the page). */
export const SkillsListPage = z.looseObject({
  skills: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** A `skills/get` result. */
export const SkillsGetResult = z.looseObject({ skill: SkillEntry });

/** A `resources/read` result: text or base64 blob contents. */
export const ResourceReadResult = z.looseObject({
  contents: z.array(
    z.looseObject({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
    }),
  ),
});

/** A `resources/directory/read` page: the direct children of a directory. */
export const DirectoryReadPage = z.looseObject({
  resources: z.array(z.looseObject({ uri: z.string(), mimeType: z.string().optional() })),
  nextCursor: z.string().optional(),
});
