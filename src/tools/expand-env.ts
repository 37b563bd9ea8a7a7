import { FlowScoutError } from '../errors/index.js';

/**
 * `${VAR}` in a tool config's `env` and `headers` values is read from the environment, so secrets
 * stay out of config files. `$${VAR}` is a literal `${VAR}`. An unset variable is an error naming
 * the setting, not an empty string silently sent to a server.
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, setting: string): string {
  return value.replace(/\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => {
    if (match.startsWith('$$')) return match.slice(1);
    const v = env[name];
    if (v === undefined) {
      throw new FlowScoutError({
        code: 'INVALID_INPUT',
        message: `${setting} uses \${${name}}, but the environment variable ${name} is not set`,
        hint: `Set ${name} in the environment (export ${name}=…) before running.`,
      });
    }
    return v;
  });
}
