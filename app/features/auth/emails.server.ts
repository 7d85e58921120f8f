// E-mail texts (pt-BR). Plain text plus a minimal HTML version with the same link.
import { mailLayout as layout, type Mail } from "~/server/mail.server";

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

export function welcomeEmail(to: string, name: string): Mail {
  const paragraphs = [
    `Olá, ${firstName(name)}! Que bom ter você aqui.`,
    "Converse com a Nika, assista às aulas do Teacher FLIX e teste suas habilidades nos Labs. Bons estudos!",
  ];
  return {
    to,
    kind: "welcome",
    subject: "Bem-vindo(a) ao Nika!",
    text: paragraphs.join("\n\n"),
    html: layout("Bem-vindo(a) ao Nika!", paragraphs),
  };
}

export function confirmationEmail(to: string, name: string, link: string): Mail {
  const paragraphs = [`Olá, ${firstName(name)}!`, "Confirme seu email para ativar sua conta no Nika. O link vale por 24 horas."];
  return {
    to,
    kind: "email_verification",
    subject: "Confirme seu email no Nika",
    text: `${paragraphs.join("\n\n")}\n\nConfirmar email: ${link}`,
    html: layout("Confirme seu email", paragraphs, { label: "Confirmar email", url: link }),
  };
}

export function passwordResetEmail(to: string, name: string, link: string): Mail {
  const paragraphs = [
    `Olá, ${firstName(name)}!`,
    "Recebemos um pedido para redefinir a sua senha. O link vale por 1 hora. Se não foi você, ignore este email.",
  ];
  return {
    to,
    kind: "password_reset",
    subject: "Redefinição de senha do Nika",
    text: `${paragraphs.join("\n\n")}\n\nRedefinir senha: ${link}`,
    html: layout("Redefinir senha", paragraphs, { label: "Redefinir senha", url: link }),
  };
}

/** Spec §4: the e-mail change's confirmation link goes to the NEW address. */
export function emailChangeEmail(to: string, name: string, link: string): Mail {
  const paragraphs = [
    `Olá, ${firstName(name)}!`,
    "Recebemos um pedido para usar este endereço na sua conta do Nika. Confirme a alteração pelo link abaixo; ele vale por 24 horas.",
    "Se não foi você, ignore este email: nada muda na conta.",
  ];
  return {
    to,
    kind: "email_change",
    subject: "Confirme o seu novo email no Nika",
    text: `${paragraphs.join("\n\n")}\n\nConfirmar novo email: ${link}`,
    html: layout("Confirme o seu novo email", paragraphs, { label: "Confirmar novo email", url: link }),
  };
}

/** …and a notice to the current one, so an unexpected change does not go unnoticed. */
export function emailChangeNoticeEmail(to: string, name: string, newEmail: string): Mail {
  const paragraphs = [
    `Olá, ${firstName(name)}!`,
    `Foi pedida a alteração do email da sua conta do Nika para ${newEmail}. A alteração só vale depois de confirmada pelo link enviado para o novo endereço.`,
    "Se não foi você, entre no Nika, cancele a alteração em Configurações e troque a sua senha.",
  ];
  return {
    to,
    kind: "email_change_notice",
    subject: "Pedido de alteração de email no Nika",
    text: paragraphs.join("\n\n"),
    html: layout("Pedido de alteração de email", paragraphs),
  };
}
