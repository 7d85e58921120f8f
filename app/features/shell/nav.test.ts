import { describe, expect, it } from "vitest";
import { isSafeRedirect } from "~/lib/safe-redirect";
import { BOTTOM_ITEMS, SIDEBAR_ITEMS, isNavItemActive } from "./nav";
import { readSidebarOpen, sidebarCookie } from "./sidebar-state";

const item = (to: string) => SIDEBAR_ITEMS.find((i) => i.to === to)!;

describe("navigation items", () => {
  it("match the spec's labels and targets", () => {
    expect(SIDEBAR_ITEMS.map((i) => [i.label, i.to])).toEqual([
      ["Início", "/"],
      ["Progresso", "/progresso"],
      ["Meu caderno", "/caderno"],
      ["Chat with Nika", "/chat-with-nika"],
      ["Teacher FLIX", "/courses"],
      ["Labs", "/labs"],
      ["Configurações", "/config"],
    ]);
    expect(BOTTOM_ITEMS.map((i) => [i.label, i.to])).toEqual([
      ["Início", "/"],
      ["Chat Nika", "/chat-with-nika"],
      ["Cursos", "/courses"],
      ["Labs", "/labs"],
      ["Config", "/config"],
    ]);
  });

  it("marks the current section", () => {
    expect(isNavItemActive(item("/"), "/")).toBe(true);
    expect(isNavItemActive(item("/"), "/labs")).toBe(false);
    expect(isNavItemActive(item("/courses"), "/courses/modules/abc")).toBe(true);
    expect(isNavItemActive(item("/courses"), "/coursesx")).toBe(false);
    expect(isNavItemActive(item("/labs"), "/pronunciation-game/3")).toBe(true);
    expect(isNavItemActive(item("/chat-with-nika"), "/chat/lesson/x")).toBe(true);
    expect(isNavItemActive(item("/labs"), "/labs/")).toBe(true);
    expect(isNavItemActive(item("/progresso"), "/progresso")).toBe(true);
  });
});

describe("sidebar cookie", () => {
  it("defaults to expanded", () => {
    expect(readSidebarOpen(null)).toBe(true);
    expect(readSidebarOpen("")).toBe(true);
    expect(readSidebarOpen("other=1")).toBe(true);
    expect(readSidebarOpen("sidebar:state=true")).toBe(true);
  });

  it("reads collapsed among other cookies", () => {
    expect(readSidebarOpen("nika_session=abc; sidebar:state=false; theme=x")).toBe(false);
  });

  it("serialises for 7 days, path /, SameSite=Lax", () => {
    expect(sidebarCookie(false)).toBe("sidebar:state=false; Path=/; Max-Age=604800; SameSite=Lax");
    expect(sidebarCookie(true, { secure: true })).toContain("; Secure");
  });

  it("accepts only same-site relative redirects", () => {
    expect(isSafeRedirect("/labs?x=1")).toBe(true);
    for (const bad of ["//evil.com", "/\\evil.com", "https://evil.com", "labs", "", null, 3]) {
      expect(isSafeRedirect(bad)).toBe(false);
    }
  });
});
