/**
 * `tsc -p` in the test's own process, for the package tests that type-check
 * small apps against the package: each check in a process of its own paid
 * for TypeScript's load and parsed the same declaration files again.
 */
import { join, sep } from 'node:path';
import ts from 'typescript';

/**
 * Declaration files parsed by earlier checks (TypeScript's libs, @types, the installed package, apache-arrow), by
 * path and parse settings: the checks of one process parse them once.
 */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** What `tsc -p project` prints: the project's errors, '' when it checks. */
export function typeErrors(project: string): string {
  const config = ts.getParsedCommandLineOfConfigFile(join(project, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, settings, ...rest) => {
    // The app's own files are written anew for each check.
    if (!fileName.includes(`${sep}node_modules${sep}`)) return getSourceFile(fileName, settings, ...rest);
    const o = typeof settings === 'object' ? settings : { languageVersion: settings, impliedNodeFormat: undefined };
    const key = `${fileName}\0${o.languageVersion}\0${o.impliedNodeFormat}`;
    if (!parsed.has(key)) parsed.set(key, getSourceFile(fileName, settings, ...rest));
    return parsed.get(key);
  };
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, configFileParsingDiagnostics: config.errors });
  return ts.formatDiagnostics(ts.getPreEmitDiagnostics(program), { getCanonicalFileName: (f) => f, getCurrentDirectory: () => project, getNewLine: () => '\n' });
}

