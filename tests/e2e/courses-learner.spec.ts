// Teacher FLIX, learner side, with JavaScript on and off: the catalogue, a module page and a lesson
// page; completing lessons changes progress and statistics; the next-lesson button; comments, and an
// admin's reply; 404 pages; axe-core on each page.
import { eq } from "drizzle-orm";
import { lessonComments } from "../../app/features/courses/tables";
import {
  blockVideoHosts,
  budget,
  commentWith,
  detailsHeight,
  expect,
  expectAccessible,
  holdRequests,
  jsEnabled,
  lessonRow,
  moduleCard,
  openLessonTab,
  test,
  userById,
  visit,
  waitForHydration,
  withDb,
} from "./support";

test("a learner completes lessons, sees progress and statistics change, and follows the next lesson", async ({
  page,
  learner,
  createCourse,
}, testInfo) => {
  // A long journey with several axe checks (each replays the page without JavaScript): its own budget, not the 45 s default.
  test.setTimeout(budget(120_000));
  const js = jsEnabled(testInfo);
  const course = await createCourse({ lessons: 3 });
  const [first, second, third] = course.lessons;
  await blockVideoHosts(page);

  // Catalogue: the hero, the card (no progress yet), accessible.
  await page.goto("/courses");
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
  await expect(page).toShowToast("Aula concluída!", { description: "Seu progresso foi salvo." });
  await expect.poll(async () => (await userById(learner.id)).lessonsWatched).toBe(1);
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
    await expect.poll(async () => (await userById(learner.id)).lessonsWatched).toBe(watched);
  }
  // The last lesson of this module leads nowhere in it; the page still loads.
  await page.goto(`/courses/modules/${course.moduleId}`);
  await expect(page.getByText("3 de 3 aulas concluídas")).toBeVisible();
  await expect(page.getByText("Concluído", { exact: true })).toBeVisible();
  const stats = await userById(learner.id);
  expect(stats.lessonsWatched).toBe(3);
  expect(stats.modulesCompleted).toBe(1);
  expect(stats.courseCompletion).toBeGreaterThan(0);
  await page.goto("/courses");
  await moduleCard(page, course.title).hover();
  await expect(moduleCard(page, course.title).getByText("Concluído")).toBeVisible();
});

test("a learner comments (stored as typed, shown as text) and an admin replies", async ({
  page,
  learner,
  createAccount,
  createCourse,
  pageAs,
}, testInfo) => {
  const js = jsEnabled(testInfo);
  const course = await createCourse({ label: "Comentários" });
  const lesson = course.lessons[0]!;
  await blockVideoHosts(page);

  await page.goto(`/courses/lessons/${lesson.id}`);
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
  await expect(page).toShowToast("Comentário adicionado!", { description: "Seu comentário foi publicado com sucesso." });
  await expect(page.getByLabel("Escreva um comentário")).toHaveValue("");
  await expect(page.locator("[data-testid=comment] script, [data-testid=comment] b")).toHaveCount(0);
  if (js) expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(mine.getByRole("button", { name: "Responder" })).toHaveCount(0); // learners do not reply
  const stored = await withDb((db) =>
    db.select({ content: lessonComments.content }).from(lessonComments).where(eq(lessonComments.lessonId, lesson.id)),
  );
  expect(stored).toEqual([{ content: text }]); // stored as typed (trimmed)

  // The admin replies, in their own browser.
  const admin = await pageAs(await createAccount("admin"));
  await blockVideoHosts(admin);
  await visit(admin, `/courses/lessons/${lesson.id}?tab=comentarios`);
  const seen = commentWith(admin, text);
  await expect(seen.getByTestId("comment-author")).toHaveText(learner.name);
  await seen.getByRole("button", { name: "Responder" }).click();
  const answer = `Ótima pergunta! ${Date.now()}`;
  await admin.getByLabel("Escreva uma resposta").fill(answer);
  await admin.getByRole("button", { name: "Responder" }).click();
  // Replies sit inside their parent comment, so the innermost (last) match is the reply itself.
  const reply = commentWith(admin, answer).last();
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId("comment-author")).toHaveText("Admin");
  await expect(admin.getByLabel("Escreva uma resposta")).toHaveCount(0); // the reply form closed
  await expect(admin.getByRole("heading", { name: "Comentários (2)" })).toBeVisible();
  // Replies are one level deep: no "Responder" on a reply.
  await expect(reply.getByRole("button", { name: "Responder" })).toHaveCount(0);
  await expectAccessible(admin);

  await page.reload();
  await expect(commentWith(page, answer).getByTestId("comment-author")).toHaveText("Admin");
  await expect(commentWith(page, text).getByTestId("comment-author")).toHaveText("Você");
});

test("a comment over 5000 characters is refused with the spec's message, the text kept and a reply form left open", async ({
  page,
  admin,
  createCourse,
}) => {
  const course = await createCourse({ label: "Recusas" });
  const lesson = course.lessons[0]!;
  await blockVideoHosts(page);
  const question = `Pergunta ${Date.now()}`;
  await withDb((db) => db.insert(lessonComments).values({ lessonId: lesson.id, userId: admin.id, content: question }));
  await visit(page, `/courses/lessons/${lesson.id}?tab=comentarios`);
  const tooLong = "a".repeat(5001);
  const reason = "Não foi possível adicionar o comentário. O comentário pode ter no máximo 5000 caracteres.";
  // The browser stops typing at 5000 (maxlength); the rule itself is the comment schema's, in the browser and on the server.
  const refuse = async (label: string, submit: string) => {
    const box = page.getByLabel(label);
    await expect(box).toHaveAttribute("maxlength", "5000");
    await box.evaluate((element) => element.removeAttribute("maxlength"));
    await box.fill(tooLong);
    await page.getByRole("button", { name: submit }).click();
    await expect(page.getByLabel(label)).toHaveAccessibleDescription(reason); // the form's own alert
    await expect(page.getByRole("alert").filter({ hasText: reason }).last()).toBeVisible();
    await expect(page.getByLabel(label)).toHaveValue(tooLong);
    await expect(page.getByLabel(label)).toHaveAttribute("aria-invalid", "true");
  };

  await refuse("Escreva um comentário", "Comentar");
  // A reply: without JavaScript the server answers and the page comes back with that reply form open.
  await commentWith(page, question).getByRole("button", { name: "Responder" }).click();
  await refuse("Escreva uma resposta", "Responder");
  const stored = await withDb((db) => db.select().from(lessonComments).where(eq(lessonComments.lessonId, lesson.id)));
  expect(stored.map((row) => row.content)).toEqual([question]);
});

test("admins see the edit controls of the learner pages", async ({ page, admin: _, createCourse }) => {
  const course = await createCourse({ label: "Admin" });
  await page.goto("/courses");
  await expect(page.getByRole("link", { name: "Editar banner" })).toHaveAttribute("href", "/courses/banner/edit#painel-admin");
  await expect(moduleCard(page, course.title).getByRole("link", { name: "Editar Módulo" })).toHaveAttribute(
    "href",
    `/courses/modules/${course.moduleId}/edit#painel-admin`,
  );
  await page.goto(`/courses/modules/${course.moduleId}`);
  await expect(page.getByRole("link", { name: "Editar Módulo" })).toHaveAttribute(
    "href",
    `/courses/modules/${course.moduleId}/edit#painel-admin`,
  );
  const lesson = course.lessons[0]!;
  await expect(lessonRow(page, lesson.title).getByRole("link", { name: "Editar Aula" })).toHaveAttribute(
    "href",
    `/courses/lessons/${lesson.id}/edit#painel-admin`,
  );
  await page.goto(`/courses/lessons/${lesson.id}?tab=materiais`);
  await expect(page.getByRole("link", { name: "Editar Aula" })).toHaveAttribute("href", `/courses/lessons/${lesson.id}/edit#painel-admin`);
  await expect(page.getByRole("link", { name: "Enviar material" })).toHaveAttribute(
    "href",
    `/courses/lessons/${lesson.id}/materials#painel-admin`,
  );
});

test("'Praticar com a Nika' links lessons of modules 1+ to /chat/lesson/{code}", async ({ page, learner: _, createCourse }) => {
  // A module of its own with order_index ≥ 1 (after the seeded ones, so the code is its own).
  const course = await createCourse({ lessons: 2, label: "Prática", position: "last" });
  const second = course.lessons[1]!;
  const code = `M${course.orderIndex}A02`;
  await blockVideoHosts(page);
  await page.goto(`/courses/lessons/${second.id}`);
  await expect(page.getByText(`Módulo ${course.orderIndex}: ${course.title}`).first()).toBeVisible();
  const practice = page.getByRole("link", { name: "Praticar com a Nika" });
  await expect(practice).toHaveAttribute("href", `/chat/lesson/${code}`);
  // and the link leads to that lesson's practice chat
  await practice.click();
  await expect(page).toHaveRedirectedTo(new RegExp(`^/chat/lesson/${code}\\?c=[0-9a-f-]{36}$`));
  await expect(page.getByText(`Praticar a aula ${code} com a Nika`)).toBeVisible();
});

test("the phone layout: image and title on cards, 'Assistir Aula' and 'Downloads'", async ({ page, learner: _, createCourse }) => {
  const course = await createCourse({ lessons: 2, label: "Celular" });
  await page.setViewportSize({ width: 390, height: 844 });
  await blockVideoHosts(page);
  await page.goto("/courses");
  await expect(moduleCard(page, course.title).getByText("2 aulas")).toBeHidden();
  await page.goto(`/courses/modules/${course.moduleId}`);
  const row = lessonRow(page, course.lessons[0]!.title);
  await expect(row.getByRole("link", { name: "Assistir Aula" })).toBeVisible();
  await row.getByRole("link", { name: "Assistir Aula" }).click();
  await expect(page.getByText("Downloads", { exact: true })).toBeVisible();
  await expect(page.getByText("Materiais", { exact: true })).toBeHidden();
  await expectAccessible(page);
});

test("module cards expand on hover and collapse about 1 s after the pointer leaves", async ({ page, learner: _, createCourse }) => {
  const course = await createCourse({ label: "Hover" });
  await page.goto("/courses");
  const title = course.title;
  await page.mouse.move(0, 0);
  await expect.poll(() => detailsHeight(page, title)).toBe(0);
  await moduleCard(page, title).hover();
  await expect.poll(() => detailsHeight(page, title), { timeout: budget(1000) }).toBeGreaterThan(10);
  await page.mouse.move(0, 0);
  // it waits 1 s before it collapses over 2 s — read from the styles, not raced against the machine's clock
  const leaving = await moduleCard(page, title)
    .getByTestId("module-card-details")
    .evaluate((element) => ({ delay: getComputedStyle(element).transitionDelay, duration: getComputedStyle(element).transitionDuration }));
  expect(leaving).toEqual({ delay: "1s", duration: "2s" });
  await expect.poll(() => detailsHeight(page, title), { timeout: budget(5000) }).toBe(0);
});

test("a client navigation into /courses shows the skeleton while it loads", async ({ page, learner: _, createCourse }, testInfo) => {
  test.skip(!jsEnabled(testInfo), "client navigations need JavaScript");
  const course = await createCourse({ label: "Esqueleto" });
  await visit(page, `/courses/modules/${course.moduleId}`);
  const release = await holdRequests(page, /\/courses\.data/);
  await page.getByRole("link", { name: "Voltar aos Cursos" }).click();
  await expect(page.getByTestId("courses-skeleton")).toBeVisible();
  release();
  await expect(page.getByRole("heading", { level: 1, name: "Teacher FLIX" })).toBeVisible();
  await expect(page.getByTestId("courses-skeleton")).toHaveCount(0);
});

test("missing or malformed ids show 'Módulo não encontrado' / 'Aula não encontrada' with a 404", async ({ page, learner: _ }) => {
  await visit(page, "/courses");
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
