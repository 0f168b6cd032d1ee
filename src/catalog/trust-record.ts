/**
 * Trust records: the roots a user trusted (`skillrt trust`), each with its origin and the content digest
 * it had then. Kept in the user's `~/.skillrt/trust.json`; see `readTrustFile`.
 */
import { z } from "zod";

/** Which source a trust record is about: a filesystem root, a remote root (its URL), an MCP server, … */
export const TrustOrigin = z.object({
  /** `fs` (a local root, id: its absolute path), `remote` (id: the root's URL or archive as given), or another source's kind. */
  kind: z.string().min(1),
  id: z.string().min(1),
});
/** Which source a trust record is about. */
export type TrustOrigin = z.infer<typeof TrustOrigin>;

/** One trusted root. */
export const TrustRecord = z.object({
  origin: TrustOrigin,
  /** `sha256:<hex>` of the root's content when it was trusted (`digestRoot`). */
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  /** ISO time it was trusted. */
  trustedAt: z.string(),
});
/** One trusted root. */
export type TrustRecord = z.infer<typeof TrustRecord>;

/** The whole trust file. */
export const TrustFile = z.object({ version: z.literal(1), roots: z.array(TrustRecord) });
/** The whole trust file. */
export type TrustFile = z.infer<typeof TrustFile>;
