import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { buildOutputs, buildScript, REPO_ROOT } from "../../bench/bundle/build.ts";

interface WranglerEnvironment {
  minify?: unknown;
  keep_names?: unknown;
}
type WranglerConfig = WranglerEnvironment & { env?: Record<string, WranglerEnvironment> };

const config = parse(readFileSync(resolve(REPO_ROOT, "wrangler.toml"), "utf8")) as WranglerConfig;

describe("what is deployed is what bench:bundle measures", () => {
  it("minifies the top-level environment and every [env.*] alike (environments do not inherit it)", () => {
    const environments = { "(top level)": config, ...config.env };
    expect(Object.keys(environments).length).toBeGreaterThan(1);
    const bundling = Object.entries(environments).map(([name, env]) => ({
      name,
      minify: env.minify,
      keep_names: env.keep_names,
    }));
    expect(bundling).toEqual(Object.keys(environments).map((name) => ({ name, minify: true, keep_names: false })));
  });

  it("builds the top-level environment with wrangler.toml's settings alone, where the bench reads it", () => {
    const script = buildScript();
    expect(script).toMatch(/^wrangler deploy --dry-run /);
    // `--env=` names the top-level environment (no "multiple environments" warning, never staging by accident).
    expect(script.split(" ")).toContain("--env=");
    // A bundling flag here would make the build differ from what `wrangler deploy` uploads.
    expect(script).not.toMatch(/--(no-)?(minify|bundle|keep-names)\b|--define|--alias/);
    expect(buildOutputs(script)).toEqual({
      outdir: resolve(REPO_ROOT, "dist"),
      metafile: resolve(REPO_ROOT, "dist/meta.json"),
    });
  });
});
