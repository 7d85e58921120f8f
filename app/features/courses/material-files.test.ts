import { describe, expect, it } from "vitest";
import {
  formatFileSize,
  formatUploadDate,
  materialContentType,
  materialDownloadPath,
  materialFileId,
  materialTitle,
  materialType,
  withUploadLabels,
} from "./material-files";

describe("material items", () => {
  it("sizes: B under 1 KB, KB with one decimal under 1 MB, else MB with one decimal", () => {
    expect(formatFileSize(0)).toBe("0 B");
    expect(formatFileSize(1023)).toBe("1023 B");
    expect(formatFileSize(1024)).toBe("1.0 KB");
    expect(formatFileSize(1536)).toBe("1.5 KB");
    expect(formatFileSize(1024 * 1024 - 1)).toBe("1024.0 KB");
    expect(formatFileSize(1024 * 1024)).toBe("1.0 MB");
    expect(formatFileSize(52_428_800)).toBe("50.0 MB");
  });

  it("title is the name without extension; type the upper-case extension or FILE", () => {
    expect(materialTitle("Apostila Aula 1.pdf")).toBe("Apostila Aula 1");
    expect(materialTitle("arquivo.tar.gz")).toBe("arquivo.tar");
    expect(materialTitle("LEIAME")).toBe("LEIAME");
    expect(materialType("Apostila Aula 1.pdf")).toBe("PDF");
    expect(materialType("slides.PpTx")).toBe("PPTX");
    expect(materialType("LEIAME")).toBe("FILE");
    expect(materialType(".bashrc")).toBe("FILE");
  });

  it("upload date in pt-BR, São Paulo time", () => {
    expect(formatUploadDate("2025-03-05T02:30:00.000Z")).toBe("04/03/2025");
    expect(formatUploadDate("not a date")).toBe("");
  });

  it("the server hands the list its dates written out, the material otherwise unchanged", () => {
    const material = { title: "Apostila", type: "PDF", size: "1 KB", url: "/media/x.pdf", uploadedAt: "2025-03-05T02:30:00.000Z" };
    expect(withUploadLabels([material])).toEqual([{ ...material, uploadedLabel: "04/03/2025" }]);
  });

  it("download path by the stored file name", () => {
    const material = { url: "/media/lesson-materials/l-1/1700000000000_Apostila_Aula_1.pdf" };
    expect(materialFileId(material)).toBe("1700000000000_Apostila_Aula_1.pdf");
    expect(materialDownloadPath("l-1", material)).toBe("/courses/lessons/l-1/materials/1700000000000_Apostila_Aula_1.pdf/download");
  });

  it("content type: the declared one, else a guess from the extension", () => {
    expect(materialContentType("a.pdf", "application/pdf")).toBe("application/pdf");
    expect(materialContentType("a.docx", "application/octet-stream")).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(materialContentType("a.unknown", "")).toBe("application/octet-stream");
    expect(materialContentType("a.zip", "bad type; x")).toBe("application/zip");
  });
});
