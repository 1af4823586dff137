/**
 * @module
 * What every `npm run` script of dev/ and bench/ shares on the command line: `--help` prints its usage, its options
 * and the settings (environment variables) it reads; an unknown option, a missing setting or any other failure ends
 * it with one line that names the problem, never a stack trace.
 */
import { existsSync } from "node:fs";
import { parseArgs, type ParseArgsOptionDescriptor } from "node:util";
import type * as z from "zod";

export interface CommandOption extends ParseArgsOptionDescriptor {
  /** What the option does, for `--help`. */
  description: string;
  /** How `--help` names the value of a string option: `--split <name>`. */
  valueName?: string;
}

export interface Command<O extends Record<string, CommandOption>> {
  /** How a person runs it: `npm run dev`. */
  name: string;
  /** One or two sentences: what it does. */
  summary: string;
  options?: O;
  /** Each environment variable it reads, with what it means and its default. */
  settings?: Record<string, string>;
  /** Lines shown last, e.g. examples. */
  notes?: readonly string[];
}

/** Declares a command; the option types stay literal, so `parseCommandLine` knows what each value is. */
export function defineCommand<const O extends Record<string, CommandOption>>(command: Command<O>): Command<O> {
  return command;
}

/** A problem the person fixes (a missing setting, a bad option): printed as one line, without a stack trace. */
export class CommandError extends Error {}

type OptionValues<O extends Record<string, CommandOption>> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>
>["values"];

const HELP_FLAGS = new Set(["--help", "-h"]);

/** The parsed options; prints the help and exits 0 on `--help`, or exits 1 with one line on an unknown option. */
export function parseCommandLine<const O extends Record<string, CommandOption>>(
  command: Command<O>,
  argv: string[] = process.argv.slice(2),
): OptionValues<O> {
  if (argv.some((arg) => HELP_FLAGS.has(arg))) {
    process.stdout.write(helpText(command));
    process.exit(0);
  }
  const options = Object.fromEntries(
    Object.entries(command.options ?? {}).map(
      ([name, { description: _description, valueName: _valueName, ...parse }]) => [name, parse],
    ),
  );
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as OptionValues<O>;
  } catch (err) {
    return fail(command.name, new CommandError(errorText(err)));
  }
}

/** The options, parsed and then checked by `schema` (bounds, numbers); a value it refuses ends the run in one line. */
export function parseBoundedOptions<const O extends Record<string, CommandOption>, S extends z.ZodType>(
  command: Command<O>,
  schema: S,
  argv: string[] = process.argv.slice(2),
): z.output<S> {
  const parsed = schema.safeParse(parseCommandLine(command, argv));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  return fail(command.name, new CommandError(`--${issue.path.join(".")}: ${issue.message}`));
}

export function helpText(command: Command<Record<string, CommandOption>>): string {
  const lines = [`Usage: ${command.name}${command.options ? " [-- options]" : ""}`, "", ...wrap(command.summary)];
  const options = Object.entries(command.options ?? {});
  if (options.length > 0) {
    lines.push("", "Options:");
    const flags = options.map(([name, o]) => `--${name}${o.type === "string" ? ` <${o.valueName ?? "value"}>` : ""}`);
    const width = Math.max(...flags.map((f) => f.length));
    options.forEach(([, o], i) => {
      lines.push(`  ${flags[i]!.padEnd(width)}  ${o.description}`);
    });
  }
  const settings = Object.entries(command.settings ?? {});
  if (settings.length > 0) {
    lines.push("", "Settings (environment variables):");
    const width = Math.max(...settings.map(([name]) => name.length));
    for (const [name, meaning] of settings) lines.push(`  ${name.padEnd(width)}  ${meaning}`);
  }
  if (command.notes?.length) lines.push("", ...command.notes);
  return `${lines.join("\n")}\n`;
}

const HELP_WIDTH = 100;

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** The values of `names` from `env`; throws one CommandError naming every one that is missing or empty. */
export function requireSettings<const N extends string>(
  env: Record<string, string | undefined>,
  names: readonly N[],
): Record<N, string> {
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new CommandError(`${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not set`);
  }
  return Object.fromEntries(names.map((name) => [name, env[name]!])) as Record<N, string>;
}

/** `path` when the file is there; else prints `<name>: no file at <path>: <hint>` on one line and exits 1. */
export function requireFile(name: string, path: string, hint: string): string {
  if (!existsSync(path)) fail(name, new Error(`no file at ${path}: ${hint}`));
  return path;
}

/** Runs `main`; a failure prints `<name>: <reason>` on one line and sets exit code 1. */
export async function runCommand(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    fail(name, err);
  }
  // A one-shot command is over when its work is: a socket kept alive or a worker slow to dispose must not hold the
  // process (and whatever waits for it, such as CI) open after the last line is printed.
  process.exit();
}

/**
 * Prints `<name>: <reason>` on one line and exits 1; a CommandError points at `--help`, which lists every option and
 * setting.
 */
export function fail(name: string, err: unknown): never {
  const hint = err instanceof CommandError ? ` (see \`${name} -- --help\`)` : "";
  process.stderr.write(`${name}: ${errorText(err)}${hint}\n`);
  process.exit(1);
}

/** The message, with its cause's when there is one (`fetch failed: connect ECONNREFUSED 127.0.0.1:1`). */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}
