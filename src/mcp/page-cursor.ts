/**
 * Opaque pagination cursors of the MCP list methods: the offset of the next item, base64url-encoded
 * with the method's name, so a cursor of one list is refused by another. A cursor that does not decode
 * is invalid params (-32602), as the MCP specification asks.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

/** The cursor of the page starting at `offset` of list `kind`. */
export function encodeCursor(kind: string, offset: number): string {
  return Buffer.from(`${kind}:${offset}`, "utf8").toString("base64url");
}

/** The offset a `cursor` of list `kind` names; 0 when there is none. Throws -32602 for a bad cursor. */
export function decodeCursor(kind: string, cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === "string") {
    const text = Buffer.from(cursor, "base64url").toString("utf8");
    const match = /^(.+):(\d{1,9})$/.exec(text);
    if (match !== null && match[1] === kind) return Number(match[2]);
  }
  throw new McpError(
    ErrorCode.InvalidParams,
    `Invalid cursor for ${kind}: pass back a nextCursor it returned.`,
  );
}

/** One page of `items` starting at `offset`, and the cursor of the next page when there is more. */
export function pageOf<T>(
  kind: string,
  items: readonly T[],
  offset: number,
  size: number,
): { page: T[]; nextCursor?: string } {
  const end = Math.min(items.length, offset + size);
  const page = items.slice(offset, end);
  return end < items.length ? { page, nextCursor: encodeCursor(kind, end) } : { page };
}
