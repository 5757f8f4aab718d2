/**
 * The system programs the tests and the benchmark drive for real, and how a machine gets them:
 * installed with apt where we are root and allowed to, otherwise named in one message with the
 * command that installs them. Shared by `npm test` (test/support/preflight.ts) and `npm run bench`.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import { join } from 'node:path'

export interface Requirement {
  /** The Debian package that provides it. */
  pkg: string
  /** What needs it, for the message. */
  why: string
  present: () => boolean
}

/** An executable file at `path`. */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** `command` found on PATH, as spawn() will look for it. */
export function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && executable(join(dir, command)))
}

/** Set to 1 to only check, never install (a machine whose packages someone else manages). */
export const NO_INSTALL_SWITCH = 'TEST_NO_INSTALL'

/** Whether this process may install Debian packages itself: root, apt-get present, not switched off. */
export function canInstall(): boolean {
  return process.getuid?.() === 0 && process.env[NO_INSTALL_SWITCH] !== '1' && onPath('apt-get')
}

export function installCommand(pkgs: readonly string[]): string {
  return `${process.getuid?.() === 0 ? '' : 'sudo '}apt-get install -y ${pkgs.join(' ')}`
}

/**
 * Installs what is missing when it can; returns the requirements still missing afterwards
 * (empty when everything is there).
 */
export function ensure(requirements: readonly Requirement[], log: (line: string) => void = console.log): Requirement[] {
  const missing = requirements.filter((r) => !r.present())
  if (missing.length === 0 || !canInstall()) return missing
  const pkgs = [...new Set(missing.map((r) => r.pkg))]
  log(`Installing ${pkgs.join(', ')} with apt-get…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  const quiet: SpawnSyncOptions = { env, stdio: ['ignore', 'ignore', 'inherit'] }
  spawnSync('apt-get', ['update', '-qq'], quiet)
  spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], quiet)
  return missing.filter((r) => !r.present())
}

/** One message naming what is missing, why, and the command that installs it. */
export function missingMessage(command: string, missing: readonly Requirement[]): string {
  const pkgs = [...new Set(missing.map((r) => r.pkg))]
  return [
    `${command} cannot run: ${pkgs.join(', ').replace(/, ([^,]*)$/, ' and $1')} ` +
      `${pkgs.length === 1 ? 'is' : 'are'} missing.`,
    ...missing.map((r) => `  ${r.pkg}: ${r.why}`),
    `Install ${pkgs.length === 1 ? 'it' : 'them'}, then run ${command} again:`,
    `  ${installCommand(pkgs)}`,
  ].join('\n')
}
