export declare const ROOT: string;
export declare function composeTopology(text?: string): {
  chatEnvironment: Record<string, string>;
  instances: string[];
  nginxConfig: string | undefined;
  nginxAddress: string | undefined;
  pgbouncer: Record<string, string>;
  replica: string[];
};
