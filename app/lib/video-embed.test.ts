import { describe, expect, it } from "vitest";
import {
  checkEmbedCode,
  EMBED_NOT_ALLOWED,
  EMBED_UNREADABLE,
  iframeSrc,
  resolveLessonVideo,
  videoFromUrl,
  vimeoEmbedUrl,
  youtubeEmbedUrl,
} from "./video-embed";

const NOCOOKIE = "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ";

describe("video URLs", () => {
  it.each([
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtube.com/watch?v=dQw4w9WgXcQ&feature=share",
    "https://m.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://youtu.be/dQw4w9WgXcQ",
    "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    "https://www.youtube.com/embed/dQw4w9WgXcQ",
    "https://www.youtube.com/live/dQw4w9WgXcQ",
    "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    "http://www.youtube.com/watch?v=dQw4w9WgXcQ",
  ])("YouTube %s → youtube-nocookie embed", (url) => {
    expect(youtubeEmbedUrl(url)).toBe(NOCOOKIE);
  });

  it("keeps the start time", () => {
    expect(youtubeEmbedUrl("https://youtu.be/dQw4w9WgXcQ?t=90")).toBe(`${NOCOOKIE}?start=90`);
    expect(youtubeEmbedUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s")).toBe(`${NOCOOKIE}?start=90`);
  });

  it("refuses YouTube lookalikes and bad ids", () => {
    expect(youtubeEmbedUrl("https://www.youtube.com.evil.com/watch?v=dQw4w9WgXcQ")).toBeNull();
    expect(youtubeEmbedUrl("https://www.youtube.com/watch?v=short")).toBeNull();
    expect(youtubeEmbedUrl("javascript:alert(1)//youtu.be/dQw4w9WgXcQ")).toBeNull();
  });

  it("Vimeo links → player URL (unlisted hash kept)", () => {
    expect(vimeoEmbedUrl("https://vimeo.com/76979871")).toBe("https://player.vimeo.com/video/76979871");
    expect(vimeoEmbedUrl("https://vimeo.com/76979871/abcdef1234")).toBe("https://player.vimeo.com/video/76979871?h=abcdef1234");
    expect(vimeoEmbedUrl("https://vimeo.com/channels/staffpicks/76979871")).toBe("https://player.vimeo.com/video/76979871");
    expect(vimeoEmbedUrl("https://player.vimeo.com/video/76979871?h=ff00aa")).toBe("https://player.vimeo.com/video/76979871?h=ff00aa");
    expect(vimeoEmbedUrl("https://vimeo.com/about")).toBeNull();
  });

  it("direct files play in <video>", () => {
    expect(videoFromUrl("https://cdn.example.com/aulas/aula-1.mp4")).toEqual({
      kind: "file",
      src: "https://cdn.example.com/aulas/aula-1.mp4",
      type: "video/mp4",
    });
    expect(videoFromUrl("https://cdn.example.com/a.webm?token=1")).toMatchObject({ kind: "file", type: "video/webm" });
    expect(videoFromUrl("https://cdn.example.com/a.ogg")).toMatchObject({ kind: "file", type: "video/ogg" });
    expect(videoFromUrl("https://cdn.example.com/a.avi")).toBeNull();
    expect(videoFromUrl("ftp://cdn.example.com/a.mp4")).toBeNull();
    expect(videoFromUrl("data:video/mp4;base64,AAAA")).toBeNull();
  });
});

describe("embed codes (only the iframe src, only allowed hosts)", () => {
  it("reads the first iframe's src, quoted or not, with entities", () => {
    expect(iframeSrc('<iframe width="560" src="https://player.vimeo.com/video/1?h=a&amp;b=2" allowfullscreen></iframe>')).toBe(
      "https://player.vimeo.com/video/1?h=a&b=2",
    );
    expect(iframeSrc("<IFRAME SRC='https://www.loom.com/embed/abc'></IFRAME>")).toBe("https://www.loom.com/embed/abc");
    expect(iframeSrc("<iframe src=https://fast.wistia.net/embed/iframe/xyz></iframe>")).toBe("https://fast.wistia.net/embed/iframe/xyz");
    expect(iframeSrc('<iframe data-src="https://evil.example/" src="https://www.loom.com/embed/abc"></iframe>')).toBe(
      "https://www.loom.com/embed/abc",
    );
    expect(iframeSrc("https://www.loom.com/embed/abc")).toBe("https://www.loom.com/embed/abc");
    expect(iframeSrc("<div>nada</div>")).toBeNull();
  });

  it.each([
    ['<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=5" frameborder="0"></iframe>', `${NOCOOKIE}?start=5`],
    ['<iframe src="//www.youtube.com/embed/dQw4w9WgXcQ"></iframe>', NOCOOKIE],
    [
      '<div style="padding:56.25% 0 0 0"><iframe src="https://player.vimeo.com/video/76979871?badge=0"></iframe></div><script src="https://player.vimeo.com/api/player.js"></script>',
      "https://player.vimeo.com/video/76979871?badge=0",
    ],
    ['<iframe src="https://fast.wistia.net/embed/iframe/abc123"></iframe>', "https://fast.wistia.net/embed/iframe/abc123"],
    ['<iframe src="https://www.loom.com/embed/0123abcd"></iframe>', "https://www.loom.com/embed/0123abcd"],
    [
      '<iframe src="https://iframe.mediadelivery.net/embed/1234/0a1b2c3d-aaaa"></iframe>',
      "https://iframe.mediadelivery.net/embed/1234/0a1b2c3d-aaaa",
    ],
    [
      '<iframe src="https://customer-abc123.cloudflarestream.com/5d5bc37ffcf54c9b82e996823bffbb81/iframe"></iframe>',
      "https://customer-abc123.cloudflarestream.com/5d5bc37ffcf54c9b82e996823bffbb81/iframe",
    ],
    [
      '<iframe src="https://iframe.videodelivery.net/5d5bc37ffcf54c9b82e996823bffbb81"></iframe>',
      "https://iframe.videodelivery.net/5d5bc37ffcf54c9b82e996823bffbb81",
    ],
    ['<iframe src="https://drive.google.com/file/d/1AbC_dEf/preview" width="640"></iframe>', "https://drive.google.com/file/d/1AbC_dEf/preview"],
    [
      '<iframe src="https://player-vz-7b6cf9e4-8bf.tv.pandavideo.com.br/embed/?v=abc"></iframe>',
      "https://player-vz-7b6cf9e4-8bf.tv.pandavideo.com.br/embed/?v=abc",
    ],
  ])("accepts %s", (code, src) => {
    expect(checkEmbedCode(code)).toMatchObject({ ok: true, src });
  });

  it.each([
    '<iframe src="https://evil.example.com/embed/x"></iframe>',
    '<iframe src="http://player.vimeo.com/video/1"></iframe>',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
    '<iframe srcdoc="<script>alert(1)</script>" src="https://evil.example"></iframe>',
    '<iframe src="https://drive.google.com/file/d/1AbC/edit"></iframe>',
    '<iframe src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe>',
    '<iframe src="https://player.vimeo.com.evil.com/video/1"></iframe>',
    '<iframe src="https://user:pass@player.vimeo.com/video/1"></iframe>',
    '<iframe src="https://player.vimeo.com:8443/video/1"></iframe>',
  ])("refuses %s", (code) => {
    expect(checkEmbedCode(code)).toEqual({ ok: false, message: EMBED_NOT_ALLOWED });
  });

  it("explains when there is no iframe src at all", () => {
    expect(checkEmbedCode("<script>alert(1)</script>")).toEqual({ ok: false, message: EMBED_UNREADABLE });
    expect(checkEmbedCode("<iframe></iframe>")).toEqual({ ok: false, message: EMBED_UNREADABLE });
  });
});

describe("resolveLessonVideo", () => {
  it("prefers a playable URL, falls back to the allowed embed, renders nothing unsafe", () => {
    expect(resolveLessonVideo("https://youtu.be/dQw4w9WgXcQ", '<iframe src="https://www.loom.com/embed/x"></iframe>')).toMatchObject({
      src: NOCOOKIE,
    });
    expect(resolveLessonVideo("", '<iframe src="https://www.loom.com/embed/x"></iframe>')).toMatchObject({ kind: "iframe", provider: "loom" });
    expect(resolveLessonVideo("https://unknown.example/video", '<iframe src="https://www.loom.com/embed/x"></iframe>')).toMatchObject({
      provider: "loom",
    });
    expect(resolveLessonVideo(null, '<iframe src="https://evil.example/x"></iframe><script>alert(1)</script>')).toBeNull();
    expect(resolveLessonVideo(null, null)).toBeNull();
  });
});
