-- Custom SQL migration file, put your code below! --
-- Every key of spec §7/§9 with its default. Flags are enabled unless explicitly false;
-- email_confirmation_required is on only when true.
INSERT INTO "app_config" ("config_key", "config_value", "text_value", "description") VALUES
  ('feature_chat_portuguese', true, NULL, 'Chat with Nika: modo Começar em Português'),
  ('feature_chat_english', true, NULL, 'Chat with Nika: modo Tópico em Inglês'),
  ('feature_chat_game', true, NULL, 'Chat with Nika: modo Game'),
  ('feature_chat_roleplay', true, NULL, 'Chat with Nika: modo Role Play'),
  ('feature_chat_english_test', true, NULL, 'Teste de nível de inglês (/english-level-test)'),
  ('feature_teacher_flix', true, NULL, 'Teacher FLIX: cursos em vídeo (/courses)'),
  ('feature_flashcards', true, NULL, 'Labs: Flashcards (/flashcard-v2)'),
  ('feature_pronunciation', true, NULL, 'Labs: jogo de pronúncia (/pronunciation-game)'),
  ('email_confirmation_required', false, NULL, 'Exigir confirmação de email antes do primeiro login'),
  ('enable_account_creation_on_signin', true, NULL, 'Mostrar login com Google (cria conta no primeiro acesso)'),
  ('signup_enabled', true, NULL, 'Permitir criação de novas contas em /signup'),
  ('app_name', true, 'Nika', 'Nome do aplicativo')
ON CONFLICT ("config_key") DO NOTHING;
