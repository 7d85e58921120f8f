import { describe, expect, it } from "vitest";
import { buttonVariants } from "./button";
import { cn } from "./cn";

describe("buttonVariants", () => {
  it("defaults to the primary, medium button", () => {
    const classes = buttonVariants().split(" ");
    expect(classes).toEqual(expect.arrayContaining(["inline-flex", "bg-indigo-600", "text-white", "px-4", "py-2.5", "rounded-xl"]));
  });

  it("lets a caller's classes win over the variant's (tailwind-merge)", () => {
    const classes = buttonVariants({ size: "lg", className: "h-12 px-6 py-0" }).split(" ");
    expect(classes).toEqual(expect.arrayContaining(["h-12", "px-6", "py-0"]));
    expect(classes).not.toContain("px-5");
    expect(classes).not.toContain("py-3");
  });

  it("keeps a completed 'success' button readable when disabled", () => {
    expect(buttonVariants({ variant: "success" })).toContain("disabled:opacity-100");
    expect(buttonVariants({ variant: "primary" })).toContain("disabled:opacity-60");
  });
});

describe("cn", () => {
  it("drops the earlier of two conflicting utilities, so `hidden md:inline-flex` really hides", () => {
    expect(cn("inline-flex items-center", "hidden md:inline-flex")).toBe("items-center hidden md:inline-flex");
    // eslint-disable-next-line no-constant-binary-expression -- a falsy conditional class, on purpose
    expect(cn("dark:bg-night-900", false && "x", "dark:bg-night-800")).toBe("dark:bg-night-800");
  });
});
