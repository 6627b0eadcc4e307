import { accessSync, constants, mkdirSync, Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from './config-error';

/**
 * Makes sure the folder a variable names exists and can be written, creating what is missing one
 * level at a time: Node's recursive mkdir spins forever under a path it cannot create in (/proc),
 * and its errors never say which variable named the path. A ConfigError (exit 78) otherwise.
 */
export function ensureWritableFolder(variable: string, folder: string): void {
  const path = resolve(folder);
  const missing: string[] = [];
  let existing = path;
  let found = statOf(existing);
  while (!found) {
    missing.unshift(existing);
    const parent = dirname(existing);
    if (parent === existing) break;
    existing = parent;
    found = statOf(existing);
  }
  if (!found?.isDirectory()) {
    throw new ConfigError(`${variable}: ${existing} is not a folder (in ${path})`);
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      throw new ConfigError(`${variable}: cannot create the folder ${level}: ${reason(error)}`);
    }
  }
  try {
    accessSync(path, constants.W_OK);
  } catch (error) {
    throw new ConfigError(`${variable}: cannot write in ${path}: ${reason(error)}`);
  }
}

/** Makes sure a file a variable names can be created or appended to (its folder made if needed). */
export function ensureWritableFile(variable: string, file: string): void {
  const path = resolve(file);
  const found = statOf(path);
  if (found?.isDirectory()) {
    throw new ConfigError(`${variable}: ${path} is a folder, not a file`);
  }
  ensureWritableFolder(variable, dirname(path));
  if (found) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      throw new ConfigError(`${variable}: cannot write to ${path}: ${reason(error)}`);
    }
  }
}

/** The path's stats, or undefined where nothing can be found there (missing, or under a file). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ?? e.message ?? String(error);
}
