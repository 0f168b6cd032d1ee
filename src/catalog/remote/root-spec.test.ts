import { describe, expect, it } from "vitest";
import { RemoteRootError } from "./remote-root-error.js";
import { isRemoteRootSpec, parseRootSpec } from "./root-spec.js";

const pin = "ab".repeat(32);

describe("parseRootSpec", () => {
  it("tells remote and archive specs from folders", () => {
    expect(parseRootSpec("skills", "/w")).toBeUndefined();
    expect(parseRootSpec("file:///srv/skills", "/w")).toBeUndefined();
    expect(isRemoteRootSpec("./vendor/skills")).toBe(false);
    expect(isRemoteRootSpec("pack.TGZ")).toBe(true);
  });

  it("parses archive, SKILL.md, git and local specs with their pins", () => {
    expect(parseRootSpec(`https://h/x/skills.tar.gz#sha256=${pin.toUpperCase()}`, "/w")).toEqual({
      kind: "archive-url",
      source: "https://h/x/skills.tar.gz",
      location: "https://h/x/skills.tar.gz",
      format: "tar.gz",
      sha256: pin,
    });
    expect(parseRootSpec("https://h/a/SKILL.md", "/w")).toMatchObject({ kind: "skill-md-url" });
    expect(parseRootSpec("https://h/download?id=1", "/w")).toEqual({
      kind: "archive-url",
      source: "https://h/download?id=1",
      location: "https://h/download?id=1",
    });
    expect(parseRootSpec("git+https://github.com/o/r.git#v1.2", "/w")).toEqual({
      kind: "git",
      source: "git+https://github.com/o/r.git#v1.2",
      location: "https://github.com/o/r.git",
      ref: "v1.2",
    });
    expect(parseRootSpec("git+file:///srv/repo", "/w")).toMatchObject({
      kind: "git",
      location: "file:///srv/repo",
    });
    expect(parseRootSpec("vendor/pack.zip", "/w")).toMatchObject({
      kind: "local-archive",
      location: "/w/vendor/pack.zip",
    });
    expect(parseRootSpec("file://localhost/srv/p.tgz", "/w")).toMatchObject({
      kind: "local-archive",
      location: "/srv/p.tgz",
    });
  });

  it("refuses what cannot be fetched, saying why", () => {
    const why = (spec: string) => {
      try {
        parseRootSpec(spec, "/w");
      } catch (error) {
        expect(error).toBeInstanceOf(RemoteRootError);
        return (error as Error).message;
      }
      return "accepted";
    };
    expect(why("file://evil.example/p.zip")).toContain("must name the local host (got 'evil.example')");
    expect(why("https://h/p.zip#sha256=123")).toContain("#sha256= takes 64 hex digits (got '123')");
    expect(why("git+ftp://h/r")).toContain("git roots are git+https://");
    expect(why("git+https://h/r#--upload-pack=x")).toContain("is not a git ref");
  });
});
