// Teacher FLIX admin journeys, with JavaScript on (dialogs over the page) and off (page sections):
// editing a module and a lesson (seen on the learner pages), uploading an image and a material, a
// learner downloading it (headers and bytes), the admin removing it. Refusals of oversize and
// non-image files are covered by tests/integration/courses-admin.test.ts.
import { readFileSync } from "node:fs";
import { adminPanel, expect, expectAccessible, jsEnabled, lessonRecord, moduleRecord, test, visit, waitForHydration } from "./support";

const PNG = readFileSync("tests/fixtures/tiny.png");
const PDF = readFileSync("tests/fixtures/apostila-aula.pdf");

test("an admin edits a module and uploads its image; the learner pages show the change", async ({ page, admin: _, createCourse }, testInfo) => {
  const course = await createCourse({ label: "Módulo admin", position: "last" });
  const modulePath = `/courses/modules/${course.moduleId}`;
  await visit(page, modulePath);

  await page.getByRole("link", { name: "Editar Módulo" }).click();
  await expect(page).toHaveURL(`${modulePath}/edit#painel-admin`);
  const panel = adminPanel(page, testInfo, "Editar Módulo");
  await expect(panel).toBeVisible();
  await expect(panel.getByLabel("Título", { exact: true })).toHaveValue(course.title);
  await expectAccessible(page);

  // validation keeps what was typed
  await panel.getByLabel("Título", { exact: true }).fill("ab");
  await panel.getByLabel("Descrição").fill("Descrição nova do módulo");
  await panel.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(panel.getByText("Mínimo 3 caracteres")).toBeVisible();
  await expect(panel.getByLabel("Descrição")).toHaveValue("Descrição nova do módulo");

  const newTitle = `${course.title} (editado)`;
  await panel.getByLabel("Título", { exact: true }).fill(newTitle);
  await panel.getByLabel("Título do banner", { exact: true }).fill("Banner do módulo editado");

  // a file that is not an image by its bytes is refused by the server: a toast with JS, the inline box without
  await panel.getByLabel("Enviar nova imagem").first().setInputFiles("tests/fixtures/fake-image.png");
  await panel.getByRole("button", { name: "Salvar alterações" }).click();
  const refusal = "Falha ao enviar imagem: Por favor selecione um arquivo de imagem";
  const inlineRefusal = panel.getByRole("alert").filter({ hasText: refusal });
  if (jsEnabled(testInfo)) {
    await expect(page).toShowToast("Erro", { description: refusal });
    await expect(inlineRefusal).toHaveCount(0);
  } else {
    await expect(inlineRefusal).toBeVisible();
    await expect(inlineRefusal.getByText("Erro", { exact: true })).toBeVisible();
  }
  await expect(panel.getByLabel("Título", { exact: true })).toHaveValue(newTitle);

  await panel.getByLabel("Enviar nova imagem").first().setInputFiles("tests/fixtures/tiny.png");
  await panel.getByRole("button", { name: "Salvar alterações" }).click();

  await expect(page).toHaveRedirectedTo(modulePath);
  await expect(page).toShowToast("Sucesso", { description: "Módulo atualizado com sucesso" });
  if (jsEnabled(testInfo)) await expect(page).toShowToast("Imagem enviada com sucesso");
  await expect(page.getByRole("heading", { level: 1, name: "Banner do módulo editado" })).toBeVisible();

  const saved = await moduleRecord(course.moduleId);
  expect(saved).toMatchObject({ title: newTitle, description: "Descrição nova do módulo", bannerTitle: "Banner do módulo editado" });
  expect(saved.imageUrl).toMatch(/^\/media\/modules\/[0-9a-f-]{36}\.png$/);
  const image = await page.request.get(saved.imageUrl!);
  expect(image.status()).toBe(200);
  expect(image.headers()["content-type"]).toBe("image/png");
  expect(image.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(Buffer.from(await image.body()).equals(PNG)).toBe(true);

  // the catalogue card shows the new title and the stored image
  await page.goto("/courses");
  const card = page.getByRole("link", { name: new RegExp(newTitle.replace(/[()]/g, "\\$&")) });
  await expect(card).toBeVisible();
  await expect(card.locator(`img[src="${saved.imageUrl}"]`)).toHaveCount(1);
});

test("an admin edits a lesson: foreign embed codes are refused, a Vimeo video is saved and played", async ({
  page,
  admin: _,
  createCourse,
}, testInfo) => {
  const course = await createCourse({ label: "Aula admin", position: "last" });
  const lessonId = course.lessons[0]!.id;
  const lessonPath = `/courses/lessons/${lessonId}`;
  await visit(page, lessonPath);

  await page.getByRole("link", { name: "Editar Aula" }).first().click();
  await expect(page).toHaveURL(`${lessonPath}/edit#painel-admin`);
  const panel = adminPanel(page, testInfo, "Editar Aula");
  await expect(panel).toBeVisible();
  await expectAccessible(page);

  await panel.getByLabel("URL do vídeo").fill("");
  await panel.getByLabel("Código iframe (opcional)").fill('<iframe src="https://evil.example/player"></iframe><script>alert(1)</script>');
  await panel.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(panel.getByText("Código iframe não permitido: use um vídeo do YouTube, Vimeo ou outro provedor suportado.")).toBeVisible();

  await panel.getByLabel("Código iframe (opcional)").fill("");
  await panel.getByRole("button", { name: "Salvar alterações" }).click();
  await expect(panel.getByText("Forneça uma URL de vídeo ou código iframe")).toBeVisible();

  const newTitle = `Aula editada ${testInfo.project.name}`;
  await panel.getByLabel("Título", { exact: true }).fill(newTitle);
  await panel.getByLabel("URL do vídeo").fill("https://vimeo.com/76979871");
  await panel.getByLabel("Duração (segundos)").fill("420");
  await panel.getByRole("button", { name: "Salvar alterações" }).click();

  await expect(page).toHaveRedirectedTo(lessonPath);
  await expect(page).toShowToast("Sucesso", { description: "Aula atualizada com sucesso" });
  await expect(page.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();
  // With JavaScript the player loads on pressing play (and starts there); without, it is on the page already.
  if (jsEnabled(testInfo)) {
    await expect(page.locator("iframe")).toHaveCount(0);
    await page.getByRole("button", { name: `Assistir ao vídeo: ${newTitle}` }).click();
  }
  const playerSrc = jsEnabled(testInfo) ? "https://player.vimeo.com/video/76979871?autoplay=1" : "https://player.vimeo.com/video/76979871";
  await expect(page.locator(`iframe[src="${playerSrc}"]`)).toHaveAttribute("title", `Vídeo: ${newTitle}`);
  expect(await lessonRecord(lessonId)).toMatchObject({
    title: newTitle,
    videoUrl: "https://vimeo.com/76979871",
    iframe: null,
    durationSeconds: 420,
  });
});

test("an admin uploads a material, a learner downloads it, the admin removes it", async ({
  page,
  admin: _,
  createAccount,
  createCourse,
  pageAs,
}, testInfo) => {
  const course = await createCourse({ label: "Materiais admin", position: "last" });
  const lessonId = course.lessons[0]!.id;
  const lessonPath = `/courses/lessons/${lessonId}`;
  const tabPath = `${lessonPath}?tab=materiais`;
  await visit(page, tabPath);

  await page.getByRole("link", { name: "Enviar material" }).click();
  await expect(page).toHaveURL(`${lessonPath}/materials#painel-admin`);
  const panel = adminPanel(page, testInfo, "Materiais da aula");
  await expect(panel.getByText("Nenhum material disponível.")).toBeVisible();
  await expectAccessible(page);

  // sending without a file: refused in the browser with JS, by the server (inline box) without
  await panel.getByRole("button", { name: "Enviar material" }).click();
  await expect(panel.getByRole("alert").filter({ hasText: "Selecione um arquivo para enviar" })).toBeVisible();
  if (!jsEnabled(testInfo)) await expect(panel.getByRole("alert").getByText("Erro no upload", { exact: true })).toBeVisible();

  await panel.getByLabel("Arquivo do material").setInputFiles("tests/fixtures/apostila-aula.pdf");
  await panel.getByRole("button", { name: "Enviar material" }).click();
  await expect(page).toShowToast("Upload concluído!", { description: "Arquivo disponível para estudantes." });
  await expect(panel.getByText("apostila-aula", { exact: true })).toBeVisible();
  await expect(panel.getByText(/PDF · 598 B · Enviado em \d{2}\/\d{2}\/\d{4}/)).toBeVisible();

  const [material] = (await lessonRecord(lessonId)).downloadableMaterials;
  expect(material).toMatchObject({ title: "apostila-aula", type: "PDF", size: "598 B" });
  expect(material!.url).toMatch(new RegExp(`^/media/lesson-materials/${lessonId}/\\d+_apostila-aula\\.pdf$`));

  // a learner downloads it from the lesson page
  const learner = await pageAs(await createAccount("learner"));
  await visit(learner, tabPath);
  const link = learner.getByRole("link", { name: "Baixar apostila-aula" });
  await expect(link).toBeVisible();
  const downloading = learner.waitForEvent("download");
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("apostila-aula.pdf");
  expect(readFileSync(await download.path()).equals(PDF)).toBe(true);
  if (jsEnabled(testInfo)) await expect(learner).toShowToast("Baixando: apostila-aula");

  const href = (await link.getAttribute("href"))!;
  const response = await learner.request.get(href);
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("application/pdf");
  expect(response.headers()["content-disposition"]).toBe(`attachment; filename="apostila-aula.pdf"; filename*=UTF-8''apostila-aula.pdf`);
  expect(response.headers()["content-length"]).toBe(String(PDF.length));
  expect(Buffer.from(await response.body()).equals(PDF)).toBe(true);
  // learners have no remove control
  await expect(learner.getByRole("button", { name: /Remover/ })).toHaveCount(0);

  // the admin removes it from the lesson page, after confirming
  await page.goto(tabPath);
  if (jsEnabled(testInfo)) await waitForHydration(page);
  await page.getByRole("button", { name: "Remover apostila-aula" }).click();
  const confirmation = page.getByRole("alertdialog");
  await expect(confirmation.getByText("Tem certeza que deseja remover este arquivo? Esta ação não pode ser desfeita.")).toBeVisible();
  await confirmation.getByRole("button", { name: "Remover" }).click();
  await expect(page).toShowToast("Arquivo removido");
  await expect(page.getByText("Nenhum material disponível.").filter({ visible: true })).toHaveCount(1);
  expect((await lessonRecord(lessonId)).downloadableMaterials).toEqual([]);

  // the file is gone from storage too
  const gone = await learner.request.get(href);
  expect(gone.status()).toBe(404);
});

test("learners cannot open the admin routes (redirected home)", async ({ page, learner: _, createCourse }) => {
  const course = await createCourse({ label: "Guarda admin", position: "last" });
  const lessonId = course.lessons[0]!.id;
  await visit(page, "/courses");
  for (const path of [
    `/courses/modules/${course.moduleId}/edit`,
    `/courses/lessons/${lessonId}/edit`,
    `/courses/lessons/${lessonId}/materials`,
    "/courses/banner/edit",
  ]) {
    await page.goto(path);
    await expect(page).toHaveRedirectedTo("/");
  }
});
