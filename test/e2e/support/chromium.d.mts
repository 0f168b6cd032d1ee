import type { Browser } from "playwright-core";

/** Where Debian installs Chromium. */
export declare const CHROMIUM: string;
/** Whether Chromium is installed here. */
export declare const hasChromium: boolean;
/** Launches headless Chromium with no sandbox, GPU, QUIC or background traffic (quiet and repeatable). */
export declare function launchChromium(): Promise<Browser>;
