/** Whether a listen address only accepts connections from this machine. */
import { isIP } from "node:net";

/** True for `localhost`, 127.0.0.0/8 and `::1` (also IPv4-mapped `::ffff:127.x.y.z`). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost") return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) return h === "::1" || /^::ffff:127\./.test(h) || h === "0:0:0:0:0:0:0:1";
  return false;
}
