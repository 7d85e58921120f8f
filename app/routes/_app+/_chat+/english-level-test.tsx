// /english-level-test: the english-test mode (flag feature_chat_english_test, back link /labs).
// Without ?c the page shows the learner's level and starts (or retakes) the test with a form post.
import { useLoaderData } from "react-router";
import { chatPageAction, loadChatPage } from "~/features/chat";
import { ChatScreen } from "~/features/chat/ui/ChatScreen";
import { LevelBanner, LevelTestIntro } from "~/features/chat/ui/EnglishLevel";
import { guard, modeTarget } from "~/features/conversation";
import type { RouteHandle } from "~/lib/access";
import { saoPauloDate } from "~/lib/dates";
import type { Route } from "./+types/english-level-test";

export const handle: RouteHandle = { access: "user" };

export const meta: Route.MetaFunction = () => [{ title: "Teste de Nível de Inglês — Nika" }];

const TARGET = modeTarget("english-test");

export async function loader(args: Route.LoaderArgs) {
  if (!new URL(args.request.url).searchParams.get("c")) {
    const user = await guard(args, TARGET);
    return {
      intro: {
        level: user.englishLevel,
        levelAtLabel: user.englishLevelAt ? saoPauloDate(user.englishLevelAt) : null,
      },
      page: null,
    };
  }
  // The level test has no live conversation.
  return { intro: null, page: { ...(await loadChatPage(args, TARGET)), liveHref: null } };
}

export async function action(args: Route.ActionArgs) {
  return chatPageAction(args, TARGET);
}

export default function EnglishLevelTest() {
  const { intro, page } = useLoaderData<typeof loader>();
  if (!page) return <LevelTestIntro level={intro!.level} levelAtLabel={intro!.levelAtLabel} />;
  return <ChatScreen key={page.conversationId} page={page} aside={(level) => <LevelBanner level={level} />} />;
}
