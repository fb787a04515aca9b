export declare const CHROMIUM: string;
export declare const INSTALL_CHROMIUM: string;
export declare function browserTestsDecision(options?: {
  chromiumInstalled?: boolean;
  env?: Record<string, string | undefined>;
}): { run: true } | { run: false; reason: string };
export declare function usesBrowser(source: string): boolean;
export declare function skippedLine(files: string[], decision: { reason: string }): string;
