// Teacher FLIX, learner side, with JavaScript on and off: the catalogue, a module page and a lesson
// page; completing lessons changes progress and statistics; the next-lesson button; comments, and an
// admin's reply; 404 pages; axe-core on each page.
import { expect, test } from "@playwright/test";
import { eq } from "drizzle-orm";
import { lessonComments, lessons } from "../../app/server/schema";
import {
  ADMIN, commentWith, createCourse, detailsHeight, lessonRow, moduleCard, newBrowserPage, openLessonTab, removeCourse, signInTo,
  type TestCourse,
} from "./courses-support";
import { PASSWORD, createConfirmedUser, expectAccessible, jsEnabled, uniqueEmail, userByEmail, waitForHydration, withDb } from "./support";

let course: TestCourse | undefined;
test.afterEach(async () => {
  await removeCourse(course);
  course = undefined;
});

test("a learner completes lessons, sees progress and statistics change, and follows the next lesson", async ({ page }, testInfo) => {
  const js = jsEnabled(testInfo);
  course = await createCourse(testInfo, 3);
  const [first, second, third] = course.lessons;
  const email = uniqueEmail(testInfo, "flix");
  await createConfirmedUser(email, PASSWORD, "Lia Estudante");
  await page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());

  // Catalogue: the hero, the card (no progress yet), accessible.
  await signInTo(page, email, PASSWORD, "/courses");
  await expect(page.getByRole("heading", { level: 1, name: "Teacher FLIX" })).toBeVisible();
  await expect(page.getByText("No seu ritmo, em qualquer lugar")).toBeVisible();
  const card = moduleCard(page, course.title);
  await expect(card.getByRole("heading", { name: course.title })).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar Módulo" })).toHaveCount(0);
  await card.hover();
  await expect(card.getByText("3 aulas")).toBeVisible();
  await expect(card.getByText("7 min")).toBeVisible(); // 90 + 150 + 210 s = 450 s, floored to whole minutes
  await expect(card.getByText(/% Completo|Concluído/)).toHaveCount(0);
  await expectAccessible(page);

  // Module page.
  await card.getByRole("link").click();
  await expect(page).toHaveURL(`/courses/modules/${course.moduleId}`);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(`^Módulo -\\d+: ${course.title}$`) })).toBeVisible();
  await expect(page.getByText("0 de 3 aulas concluídas")).toBeVisible();
  await expect(lessonRow(page, first!.title).getByText("1 min")).toBeVisible();
  await expectAccessible(page);

  // Lesson page: complete it.
  await lessonRow(page, first!.title).getByRole("link", { name: "Assistir" }).click();
  await expect(page).toHaveURL(`/courses/lessons/${first!.id}`);
  await expect(page.getByRole("heading", { level: 1, name: first!.title })).toBeVisible();
  await expect(page.getByText(`: ${course.title}`).first()).toBeVisible();
  // No description: the placeholder mentions the title.
  await expect(page.getByRole("heading", { name: "Sobre esta Aula" })).toBeVisible();
  await expect(page.getByText(`Nesta aula, “${first!.title}”`)).toBeVisible();
  await expect(page.getByRole("link", { name: "Praticar com a Nika" })).toHaveCount(0); // module order < 1
  await expectAccessible(page);
  if (js) await waitForHydration(page);
  await page.getByRole("button", { name: "Marcar como Concluída" }).click();
  await expect(page.getByRole("button", { name: "Concluída" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Marcar como Concluída" })).toHaveCount(0);
  await expect(page.getByText("Aula concluída!")).toBeVisible();
  await expect.poll(async () => (await userByEmail(email))?.lessonsWatched).toBe(1);
  await page.reload();
  await expect(page.getByRole("button", { name: "Concluída" })).toBeDisabled(); // no way back

  // Next lesson, then back to the module: progress moved.
  await page.getByRole("link", { name: "Próxima Aula" }).click();
  await expect(page).toHaveURL(`/courses/lessons/${second!.id}`);
  await expect(page.getByRole("heading", { level: 1, name: second!.title })).toBeVisible();
  await page.getByRole("link", { name: "Voltar ao Módulo" }).click();
  await expect(page.getByText("1 de 3 aulas concluídas")).toBeVisible();
  await expect(lessonRow(page, first!.title).getByRole("link", { name: "Revisar" })).toBeVisible();
  await expect(lessonRow(page, first!.title).getByText("Aula concluída")).toBeAttached();
  await expect(lessonRow(page, second!.title).getByRole("link", { name: "Assistir" })).toBeVisible();
  await expect(page.getByText("33% Completo")).toBeVisible();

  // The card's hover badge on /courses.
  await page.getByRole("link", { name: "Voltar aos Cursos" }).click();
  await expect(page).toHaveURL("/courses");
  await moduleCard(page, course.title).hover();
  await expect(moduleCard(page, course.title).getByText("33% Completo")).toBeVisible();

  // Finish the module: statistics recomputed, card says Concluído.
  let watched = 1;
  for (const lesson of [second!, third!]) {
    await page.goto(`/courses/lessons/${lesson.id}`);
    if (js) await waitForHydration(page);
    await page.getByRole("button", { name: "Marcar como Concluída" }).click();
    await expect(page.getByRole("button", { name: "Concluída" })).toBeDisabled();
    // With JS the button flips optimistically: wait for the server before leaving the page.
    watched++;
    await expect.poll(async () => (await userByEmail(email))?.lessonsWatched).toBe(watched);
  }
  // The last lesson of this module leads nowhere in it; the page still loads.
  await page.goto(`/courses/modules/${course.moduleId}`);
  await expect(page.getByText("3 de 3 aulas concluídas")).toBeVisible();
  await expect(page.getByText("Concluído", { exact: true })).toBeVisible();
  const stats = await userByEmail(email);
  expect(stats?.lessonsWatched).toBe(3);
  expect(stats?.modulesCompleted).toBe(1);
  expect(stats?.courseCompletion).toBeGreaterThan(0);
  await page.goto("/courses");
  await moduleCard(page, course.title).hover();
  await expect(moduleCard(page, course.title).getByText("Concluído")).toBeVisible();
});

test("a learner comments (stored as typed, shown as text) and an admin replies", async ({ page, browser }, testInfo) => {
  const js = jsEnabled(testInfo);
  course = await createCourse(testInfo, 1, "Comentários");
  const lesson = course.lessons[0]!;
  const email = uniqueEmail(testInfo, "comenta");
  await createConfirmedUser(email, PASSWORD, "Rui Comentador");
  await page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());

  await signInTo(page, email, PASSWORD, `/courses/lessons/${lesson.id}`);
  await openLessonTab(page, "Comentários", js);
  await expect(page.getByRole("heading", { name: "Comentários (0)" })).toBeVisible();
  await expect(page.getByText("Nenhum comentário ainda.")).toBeVisible();
  await expect(page.getByText("Seja o primeiro a comentar!")).toBeVisible();
  const box = page.getByLabel("Escreva um comentário");
  const submit = page.getByRole("button", { name: "Comentar" });
  if (js) {
    await expect(submit).toBeDisabled(); // blank
    await box.fill("   ");
    await expect(submit).toBeDisabled(); // whitespace only
  }
  await expectAccessible(page);

  const text = `<script>window.__xss = 1</script> Olá! <b>How are you?</b> ${Date.now()}`;
  await box.fill(`  ${text}  `);
  await expect(submit).toBeEnabled();
  await submit.click();
  const mine = commentWith(page, text);
  await expect(mine).toBeVisible();
  await expect(mine.getByTestId("comment-author")).toHaveText("Você");
  await expect(mine.getByTestId("comment-content")).toHaveText(text);
  await expect(mine.getByText("agora mesmo")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Comentários (1)" })).toBeVisible();
  await expect(page.getByText("Comentário adicionado!")).toBeVisible();
  await expect(page.getByText("Seu comentário foi publicado com sucesso.")).toBeVisible();
  await expect(page.getByLabel("Escreva um comentário")).toHaveValue("");
  await expect(page.locator("[data-testid=comment] script, [data-testid=comment] b")).toHaveCount(0);
  if (js) expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(mine.getByRole("button", { name: "Responder" })).toHaveCount(0); // learners do not reply
  const stored = await withDb((db) => db.select({ content: lessonComments.content }).from(lessonComments).where(eq(lessonComments.lessonId, lesson.id)));
  expect(stored).toEqual([{ content: text }]); // stored as typed (trimmed)

  // The admin replies, in their own browser.
  const admin = await newBrowserPage(browser, testInfo);
  await admin.page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());
  await signInTo(admin.page, ADMIN.email, ADMIN.password, `/courses/lessons/${lesson.id}?tab=comentarios`);
  const seen = commentWith(admin.page, text);
  await expect(seen.getByTestId("comment-author")).toHaveText("Rui Comentador");
  if (js) await waitForHydration(admin.page);
  await seen.getByRole("button", { name: "Responder" }).click();
  const answer = `Ótima pergunta! ${Date.now()}`;
  await admin.page.getByLabel("Escreva uma resposta").fill(answer);
  await admin.page.getByRole("button", { name: "Responder" }).click();
  // Replies sit inside their parent comment, so the innermost (last) match is the reply itself.
  const reply = commentWith(admin.page, answer).last();
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId("comment-author")).toHaveText("Admin");
  await expect(admin.page.getByLabel("Escreva uma resposta")).toHaveCount(0); // the reply form closed
  await expect(admin.page.getByRole("heading", { name: "Comentários (2)" })).toBeVisible();
  // Replies are one level deep: no "Responder" on a reply.
  await expect(reply.getByRole("button", { name: "Responder" })).toHaveCount(0);
  await expectAccessible(admin.page);
  await admin.context.close();

  await page.reload();
  await expect(commentWith(page, answer).getByTestId("comment-author")).toHaveText("Admin");
  await expect(commentWith(page, text).getByTestId("comment-author")).toHaveText("Você");
});

test("admins see the edit controls of the learner pages", async ({ page }, testInfo) => {
  course = await createCourse(testInfo, 1, "Admin");
  await signInTo(page, ADMIN.email, ADMIN.password, "/courses");
  await expect(page.getByRole("link", { name: "Editar banner" })).toHaveAttribute("href", "/courses/banner/edit#painel-admin");
  await expect(moduleCard(page, course.title).getByRole("link", { name: "Editar Módulo" })).toHaveAttribute(
    "href",
    `/courses/modules/${course.moduleId}/edit#painel-admin`,
  );
  await page.goto(`/courses/modules/${course.moduleId}`);
  await expect(page.getByRole("link", { name: "Editar Módulo" })).toHaveAttribute("href", `/courses/modules/${course.moduleId}/edit#painel-admin`);
  const lesson = course.lessons[0]!;
  await expect(lessonRow(page, lesson.title).getByRole("link", { name: "Editar Aula" })).toHaveAttribute("href", `/courses/lessons/${lesson.id}/edit#painel-admin`);
  await page.goto(`/courses/lessons/${lesson.id}?tab=materiais`);
  await expect(page.getByRole("link", { name: "Editar Aula" })).toHaveAttribute("href", `/courses/lessons/${lesson.id}/edit#painel-admin`);
  await expect(page.getByRole("link", { name: "Enviar material" })).toHaveAttribute("href", `/courses/lessons/${lesson.id}/materials#painel-admin`);
});

test("'Praticar com a Nika' links lessons of modules 1+ to /chat/lesson/{code}", async ({ page }, testInfo) => {
  const [greetings] = await withDb((db) => db.select({ id: lessons.id }).from(lessons).where(eq(lessons.title, "Apresentando-se: My name is...")));
  test.skip(!greetings, "the development seed is missing");
  const email = uniqueEmail(testInfo, "pratica");
  await createConfirmedUser(email);
  await page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());
  await signInTo(page, email, PASSWORD, `/courses/lessons/${greetings!.id}`);
  await expect(page.getByRole("link", { name: "Praticar com a Nika" })).toHaveAttribute("href", "/chat/lesson/M01A02");
  await expect(page.getByText("Módulo 1: Primeiros Passos no Inglês").first()).toBeVisible();
});

test("the phone layout: image and title on cards, 'Assistir Aula' and 'Downloads'", async ({ page }, testInfo) => {
  course = await createCourse(testInfo, 2, "Celular");
  const email = uniqueEmail(testInfo, "celular");
  await createConfirmedUser(email);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.route(/youtube\.com|vimeo\.com|ytimg\.com/, (route) => route.abort());
  await signInTo(page, email, PASSWORD, "/courses");
  await expect(moduleCard(page, course.title).getByText("2 aulas")).toBeHidden();
  await page.goto(`/courses/modules/${course.moduleId}`);
  const row = lessonRow(page, course.lessons[0]!.title);
  await expect(row.getByRole("link", { name: "Assistir Aula" })).toBeVisible();
  await row.getByRole("link", { name: "Assistir Aula" }).click();
  await expect(page.getByText("Downloads", { exact: true })).toBeVisible();
  await expect(page.getByText("Materiais", { exact: true })).toBeHidden();
  await expectAccessible(page);
});

test("module cards expand on hover and collapse about 1 s after the pointer leaves", async ({ page }, testInfo) => {
  course = await createCourse(testInfo, 1, "Hover");
  const email = uniqueEmail(testInfo, "hover");
  await createConfirmedUser(email);
  await signInTo(page, email, PASSWORD, "/courses");
  const title = course.title;
  await page.mouse.move(0, 0);
  await expect.poll(() => detailsHeight(page, title)).toBe(0);
  await moduleCard(page, title).hover();
  await expect.poll(() => detailsHeight(page, title), { timeout: 1000 }).toBeGreaterThan(10);
  await page.mouse.move(0, 0);
  await page.waitForTimeout(700);
  expect(await detailsHeight(page, title)).toBeGreaterThan(10); // still open within the first second
  await expect.poll(() => detailsHeight(page, title), { timeout: 5000 }).toBe(0);
});

test("a client navigation into /courses shows the skeleton while it loads", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "client navigations need JavaScript");
  course = await createCourse(testInfo, 1, "Esqueleto");
  const email = uniqueEmail(testInfo, "esqueleto");
  await createConfirmedUser(email);
  await signInTo(page, email, PASSWORD, `/courses/modules/${course.moduleId}`);
  await waitForHydration(page);
  await page.route(/\/courses\.data/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await route.continue();
  });
  await page.getByRole("link", { name: "Voltar aos Cursos" }).click();
  await expect(page.getByTestId("courses-skeleton")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Teacher FLIX" })).toBeVisible();
  await expect(page.getByTestId("courses-skeleton")).toHaveCount(0);
});

test("missing or malformed ids show 'Módulo não encontrado' / 'Aula não encontrada' with a 404", async ({ page }, testInfo) => {
  const email = uniqueEmail(testInfo, "404");
  await createConfirmedUser(email);
  await signInTo(page, email, PASSWORD, "/courses");
  let response = await page.goto("/courses/modules/nao-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Módulo não encontrado" })).toBeVisible();
  await expectAccessible(page);
  response = await page.goto("/courses/lessons/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Aula não encontrada" })).toBeVisible();
  await expect(page.getByText("Informações da aula não encontradas.")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Voltar aos Cursos" }).click();
  await expect(page).toHaveURL("/courses");
});
