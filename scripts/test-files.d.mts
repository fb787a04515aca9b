export declare function suiteTestFiles(): string[];
