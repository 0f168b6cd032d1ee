import type { DiagnosticCode } from "../../spec/types.js";
import { redactUrl } from "./redact-url.js";

/**
 * Why a remote or archive root was refused. Internal to `catalog/remote/`: `materializeRoot` turns it
 * into a diagnostic (the other roots are still read), so it never reaches a caller. Its message has every
 * URL's credentials redacted ({@link redactUrl}), whatever the code that raised it put in.
 */
export class RemoteRootError extends Error {
  readonly code: DiagnosticCode;

  constructor({ code, message }: { code: DiagnosticCode; message: string }) {
    super(redactUrl(message));
    this.name = "RemoteRootError";
    this.code = code;
  }
}
