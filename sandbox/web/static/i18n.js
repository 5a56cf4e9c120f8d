// The page's own words (its chrome, not the bot's) in the reader's language, as Discord's
// client shows its own in each language: the reader is the person the page acts as, and their
// Discord language is the one picked on the page.

const WORDS = {
  en: {
    playingAs: "Playing as",
    language: "Language",
    roles: "Roles",
    note: "A local Discord for trying the bot. Nothing leaves this computer.",
    hint: "Type {slash} for the bot's commands, or chat with the others.",
    cancel: "Cancel",
    send: "Send",
    messageTo: "Message {place}",
    messageToPerson: "Message {place}",
    textChannels: "Text channels",
    directMessages: "Direct messages",
    newMessages: " (new messages)",
    welcome: "Welcome to #{name}!",
    channelStart: "This is the start of the #{name} channel.",
    dmStart: "This is the beginning of your direct message history with @{name}.",
    used: "{who} used {command}",
    thinking: "{name} is thinking",
    edited: " (edited)",
    onlyYou: "Only you can see this",
    dismiss: "Dismiss message",
    optional: " (optional)",
    required: "{name} is required.",
    noCommands: "No commands match.",
    noOptions: "No options match.",
    noCommandMatches: "No command matches {typed}.",
    notOffered: "/{command} is not offered to you here.",
    yes: "True",
    no: "False",
    openOriginal: "Open original",
    picture: "Picture",
    connecting: "Connecting…",
    reconnecting: "Reconnecting…",
    spoiler: "Spoiler: click to reveal",
    unsupportedMenu: "(a menu this sandbox cannot show)",
    rolesTitle: "Members and their roles",
    rolesHelp: "Roles give permissions, as on a real server: Admin manages the server's settings, Moderator ends games and removes players; Game host and Referee have none of their own, for the server's settings to name.",
    rolesReadOnly: "Only the server's owner and members with Manage Roles (an Admin) can give roles: play as Server Owner to change them.",
    owner: "Server owner",
    close: "Close",
  },
  it: {
    playingAs: "Giochi come",
    language: "Lingua",
    roles: "Ruoli",
    note: "Un Discord locale per provare il bot. Nulla esce da questo computer.",
    hint: "Digita {slash} per i comandi del bot, o scrivi agli altri.",
    cancel: "Annulla",
    send: "Invia",
    messageTo: "Invia un messaggio a {place}",
    messageToPerson: "Invia un messaggio a {place}",
    textChannels: "Canali testuali",
    directMessages: "Messaggi diretti",
    newMessages: " (nuovi messaggi)",
    welcome: "Benvenuto in #{name}!",
    channelStart: "Questo è l'inizio del canale #{name}.",
    dmStart: "Questo è l'inizio della cronologia dei tuoi messaggi diretti con @{name}.",
    used: "{who} ha usato {command}",
    thinking: "{name} sta pensando",
    edited: " (modificato)",
    onlyYou: "Solo tu puoi vedere questo messaggio",
    dismiss: "Ignora messaggio",
    optional: " (facoltativo)",
    required: "{name} è obbligatorio.",
    noCommands: "Nessun comando corrisponde.",
    noOptions: "Nessuna opzione corrisponde.",
    noCommandMatches: "Nessun comando corrisponde a {typed}.",
    notOffered: "/{command} qui non è disponibile per te.",
    yes: "Vero",
    no: "Falso",
    openOriginal: "Apri originale",
    picture: "Immagine",
    connecting: "Connessione…",
    reconnecting: "Riconnessione…",
    spoiler: "Spoiler: clicca per mostrarlo",
    unsupportedMenu: "(un menu che questa sandbox non sa mostrare)",
    rolesTitle: "I membri e i loro ruoli",
    rolesHelp: "I ruoli danno permessi, come su un server vero: Admin gestisce le impostazioni del server, Moderator chiude le partite e toglie i giocatori; Game host e Referee non ne danno nessuno: esistono per essere indicati nelle impostazioni del server.",
    rolesReadOnly: "Solo il proprietario del server e chi ha il permesso Gestisci ruoli (un Admin) possono assegnare ruoli: gioca come Server Owner per cambiarli.",
    owner: "Proprietario del server",
    close: "Chiudi",
  },
  fr: {
    playingAs: "Jouer en tant que",
    language: "Langue",
    roles: "Rôles",
    note: "Un Discord local pour essayer le bot. Rien ne quitte cet ordinateur.",
    hint: "Tapez {slash} pour les commandes du bot, ou discutez avec les autres.",
    cancel: "Annuler",
    send: "Envoyer",
    messageTo: "Envoyer un message dans {place}",
    messageToPerson: "Envoyer un message à {place}",
    textChannels: "Salons textuels",
    directMessages: "Messages privés",
    newMessages: " (nouveaux messages)",
    welcome: "Bienvenue dans #{name} !",
    channelStart: "C'est le début du salon #{name}.",
    dmStart: "C'est le début de l'historique de vos messages privés avec @{name}.",
    used: "{who} a utilisé {command}",
    thinking: "{name} réfléchit",
    edited: " (modifié)",
    onlyYou: "Vous seul pouvez voir ce message",
    dismiss: "Ignorer le message",
    optional: " (facultatif)",
    required: "{name} est obligatoire.",
    noCommands: "Aucune commande ne correspond.",
    noOptions: "Aucune option ne correspond.",
    noCommandMatches: "Aucune commande ne correspond à {typed}.",
    notOffered: "/{command} ne vous est pas proposée ici.",
    yes: "Vrai",
    no: "Faux",
    openOriginal: "Ouvrir l'original",
    picture: "Image",
    connecting: "Connexion…",
    reconnecting: "Reconnexion…",
    spoiler: "Spoiler : cliquez pour l'afficher",
    unsupportedMenu: "(un menu que ce bac à sable ne sait pas afficher)",
    rolesTitle: "Les membres et leurs rôles",
    rolesHelp: "Les rôles donnent des permissions, comme sur un vrai serveur : Admin gère les paramètres du serveur, Moderator termine les parties et retire des joueurs ; Game host et Referee n'en donnent aucune : ils sont là pour être désignés dans les paramètres du serveur.",
    rolesReadOnly: "Seuls le propriétaire du serveur et les membres qui ont la permission Gérer les rôles (un Admin) peuvent attribuer des rôles : jouez en tant que Server Owner pour les modifier.",
    owner: "Propriétaire du serveur",
    close: "Fermer",
  },
  de: {
    playingAs: "Spielen als",
    language: "Sprache",
    roles: "Rollen",
    note: "Ein lokales Discord zum Ausprobieren des Bots. Nichts verlässt diesen Computer.",
    hint: "Tippe {slash} für die Befehle des Bots oder schreib den anderen.",
    cancel: "Abbrechen",
    send: "Senden",
    messageTo: "Nachricht an {place}",
    messageToPerson: "Nachricht an {place}",
    textChannels: "Textkanäle",
    directMessages: "Direktnachrichten",
    newMessages: " (neue Nachrichten)",
    welcome: "Willkommen in #{name}!",
    channelStart: "Das ist der Anfang des Kanals #{name}.",
    dmStart: "Das ist der Anfang deines Direktnachrichtenverlaufs mit @{name}.",
    used: "{who} hat {command} verwendet",
    thinking: "{name} denkt nach",
    edited: " (bearbeitet)",
    onlyYou: "Nur du kannst das sehen",
    dismiss: "Nachricht verwerfen",
    optional: " (optional)",
    required: "{name} ist erforderlich.",
    noCommands: "Keine passenden Befehle.",
    noOptions: "Keine passenden Optionen.",
    noCommandMatches: "Kein Befehl passt zu {typed}.",
    notOffered: "/{command} steht dir hier nicht zur Verfügung.",
    yes: "Wahr",
    no: "Falsch",
    openOriginal: "Original öffnen",
    picture: "Bild",
    connecting: "Verbindung wird hergestellt …",
    reconnecting: "Verbindung wird wiederhergestellt …",
    spoiler: "Spoiler: zum Anzeigen klicken",
    unsupportedMenu: "(ein Menü, das diese Sandbox nicht anzeigen kann)",
    rolesTitle: "Die Mitglieder und ihre Rollen",
    rolesHelp: "Rollen geben Berechtigungen wie auf einem echten Server: Admin verwaltet die Servereinstellungen, Moderator beendet Partien und entfernt Spieler; Game host und Referee geben selbst keine: Sie sind dazu da, in den Servereinstellungen angegeben zu werden.",
    rolesReadOnly: "Nur der Serverinhaber und Mitglieder mit der Berechtigung „Rollen verwalten“ (ein Admin) können Rollen vergeben: Spiele als Server Owner, um sie zu ändern.",
    owner: "Serverinhaber",
    close: "Schließen",
  },
};

/** The page's language: the reader's Discord language ("en-US", "it"...), by its first part. */
let current = "en";

export function setLanguage(locale) {
  const base = String(locale || "en").split("-")[0].toLowerCase();
  current = WORDS[base] ? base : "en";
}

export function language() {
  return current;
}

/** The page's words for `key` in the reader's language, `{name}`s filled from `values`. */
export function t(key, values = {}) {
  const text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/**
 * The same, as a list of nodes and strings, for words around elements ("Ada used /cmd", where
 * the command is a mention): each `{name}` whose value is a node is put in as that node.
 */
export function tNodes(key, values = {}) {
  const text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  return text.split(/(\{\w+\})/).filter(Boolean).map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    return name && name in values ? values[name] : part;
  });
}

/** Every language's words, for the tests to check that none is missing. */
export const ALL_WORDS = WORDS;
