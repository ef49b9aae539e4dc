/**
 * Where S3 requests go and who signs them, found as the AWS CLI finds them:
 * the environment (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_SESSION_TOKEN`, `AWS_REGION`/`AWS_DEFAULT_REGION`,
 * `AWS_ENDPOINT_URL_S3`/`AWS_ENDPOINT_URL`, `AWS_S3_FORCE_PATH_STYLE`),
 * then the profile (`AWS_PROFILE`, else `default`) in `~/.aws/credentials`
 * and `~/.aws/config` (or the files `AWS_SHARED_CREDENTIALS_FILE` and
 * `AWS_CONFIG_FILE` name). A missing file is no error. Secrets stay in the
 * credentials object: no message here or in the client carries one.
 */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidArgumentError, IOError } from '../errors.js';
import type { S3Credentials, S3Options } from '../io/s3/client.js';
import { errnoCode, fsReason } from './fs-errors.js';

export interface S3Environment {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
}

type Ini = Map<string, Map<string, string>>;

/** INI sections and their `key = value` lines; indented lines (a nested `s3 =` block) belong to the key above and are not read. */
export function parseIni(text: string): Ini {
  const out: Ini = new Map();
  let section: Map<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(raw) || /^\s/.test(raw)) continue;
    const head = /^\[\s*([^\]]+?)\s*\]/.exec(raw);
    if (head) {
      section = out.get(head[1]!) ?? new Map();
      out.set(head[1]!, section);
      continue;
    }
    const kv = /^([^=]+?)\s*=\s*(.*?)\s*$/.exec(raw);
    if (kv && section) section.set(kv[1]!.toLowerCase(), kv[2]!);
  }
  return out;
}

async function readIni(path: string): Promise<Ini> {
  try {
    return parseIni(await readFile(path, 'utf8'));
  } catch (e) {
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ENOTDIR') return new Map();
    throw new IOError(`cannot read ${path}: ${fsReason(e)}`, { file: path }, { cause: e });
  }
}

/** The profile's settings: the credentials file's `[name]` over the config file's `[profile name]` (`[default]` for default). */
async function profileSettings({ env, home }: S3Environment, name: string): Promise<{ found: boolean; settings: Map<string, string> }> {
  const credentialsFile = env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials');
  const configFile = env.AWS_CONFIG_FILE || join(home, '.aws', 'config');
  const [credentials, config] = await Promise.all([readIni(credentialsFile), readIni(configFile)]);
  const fromConfig = config.get(name === 'default' ? 'default' : `profile ${name}`) ?? (name === 'default' ? undefined : config.get(name));
  const fromCredentials = credentials.get(name);
  return { found: Boolean(fromConfig || fromCredentials), settings: new Map([...(fromConfig ?? []), ...(fromCredentials ?? [])]) };
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());
}

/** What a user may set in code: any S3 option, the profile, and unsigned requests (`--no-sign-request`). */
export interface S3Settings extends S3Options {
  profile?: string;
  /** false: send unsigned requests (a public bucket), whatever credentials the environment has. */
  signRequest?: boolean;
}

/**
 * The client options for `settings` over the environment. Credentials are a
 * provider read on the first signed request, so a program that never makes
 * one never fails for the lack of them.
 */
export async function resolveS3Options(settings: S3Settings = {}, environment: S3Environment = { env: process.env, home: homedir() }): Promise<S3Options> {
  const { env } = environment;
  const profileName = settings.profile ?? env.AWS_PROFILE ?? 'default';
  const profile = await profileSettings(environment, profileName);
  if (!profile.found && (settings.profile !== undefined || env.AWS_PROFILE !== undefined)) {
    throw new InvalidArgumentError(`AWS profile ${profileName} is in neither ${env.AWS_SHARED_CREDENTIALS_FILE || '~/.aws/credentials'} nor ${env.AWS_CONFIG_FILE || '~/.aws/config'}`);
  }
  const p = profile.settings;
  const region = settings.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? p.get('region');
  const endpoint = settings.endpoint ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? p.get('endpoint_url');
  const forcePathStyle = settings.forcePathStyle ?? truthy(env.AWS_S3_FORCE_PATH_STYLE);
  const base: S3Options = {
    ...(region ? { region } : {}),
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
  };
  if (settings.signRequest === false) return { ...base, credentials: null };
  if (settings.credentials !== undefined) return { ...base, credentials: settings.credentials };
  return { ...base, credentials: credentialsFrom(env, settings.profile === undefined, profileName, p) };
}

function credentialsFrom(env: S3Environment['env'], envFirst: boolean, profileName: string, p: Map<string, string>): S3Credentials | (() => S3Credentials) {
  // The environment's keys come before any profile's, as the AWS CLI takes them, unless the code names a profile.
  if (envFirst && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) {
    return { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
  }
  const id = p.get('aws_access_key_id');
  const secret = p.get('aws_secret_access_key');
  if (id && secret) {
    const token = p.get('aws_session_token');
    return { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
  }
  return () => {
    const other = ['role_arn', 'sso_session', 'sso_start_url', 'credential_process', 'web_identity_token_file'].find((k) => p.has(k));
    throw new InvalidArgumentError(
      other
        ? `AWS profile ${profileName} gets its credentials through ${other}, which parquetry does not run: pass a provider as the credentials option (e.g. from @aws-sdk/credential-providers), or export AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`
        : 'no S3 credentials found (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile in ~/.aws/credentials); for a public bucket, --no-sign-request (signRequest: false)',
    );
  };
}
