"""French prompts for capture/languages/fr.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "le log affiche ceci"

CAPTURED: list[tuple[str, str]] = [
    # the place chosen, a name, a value, the way taken (session 18)
    ("mets la config dans config/", "decided"),
    ("renomme le projet en kata", "decided"),
    ("mets le titre en bleu", "decided"),
    ("on part sur postgres", "decided"),
    # "je veux utiliser X" (I want to use X): the choice of X
    ("je veux utiliser Auth0 pour la connexion", "decided"),
    ("je voudrais garder SQLite", "decided"),
    # from now on, always where it instructs
    ("il faut toujours lancer les tests", "constraint"),
    ("a partir de maintenant utilise pnpm", "constraint"),
    # negative imperatives: ne ... pas/jamais/rien/que, either apostrophe, ne pas + infinitive,
    # the spoken form, "il ne faut pas"
    ("ne modifie pas les tests", "constraint"),
    ("ne supprime jamais les migrations", "constraint"),
    ("ne fais pas de commit sans lancer les tests", "constraint"),
    ("n'ajoute pas de dépendances", "constraint"),
    ("n’utilise pas de variables globales", "constraint"),
    ("ne touche à rien dans le dossier data", "constraint"),
    ("surtout ne supprime pas la base", "constraint"),
    ("ne modifie que le frontend", "constraint"),
    ("ne pas toucher aux tests", "constraint"),
    ("touche pas au fichier de config", "constraint"),
    ("il ne faut pas modifier l'API", "constraint"),
    ("ne le pousse pas sur main", "constraint"),
    ("je ne veux pas de docker", "constraint"),
    ("pas d'emojis dans les commits", "constraint"),
    # whenever you ..., before every commit, forbidden, mandatory, only, remember, must stay
    ("à chaque fois que tu modifies le schéma, lance les migrations", "constraint"),
    ("avant chaque commit, lance les tests", "constraint"),
    ("il est interdit d'utiliser any", "constraint"),
    ("modifie uniquement le fichier main.py", "constraint"),
    ("pense à lancer les tests", "constraint"),
    ("l'API doit rester identique", "constraint"),
    ("évite les variables globales", "constraint"),
    ("écris les commentaires en anglais", "constraint"),
    # refusals and corrections; skips and undo
    ("c'est faux, le port est 8080", "rejected"),
    ("c’est faux", "rejected"),
    ("c'est toujours faux", "rejected"),
    # the user's own "je t'ai dit de ..." is no reported speech
    ("je t'ai dit de ne pas toucher aux tests", "rejected"),
    ("c'est pas ce que je voulais", "rejected"),
    ("tu te trompes de fichier", "rejected"),
    ("ce n'est pas nécessaire", "rejected"),
    ("ça ne me plaît pas", "rejected"),
    ("je n'aime pas ce design", "rejected"),
    ("saute la partie cache", "rejected"),
    ("annule ce changement", "rejected"),
    ("reviens en arrière", "rejected"),
    # choices
    ("je prends la deuxième option", "decided"),
    ("on va utiliser sqlite", "decided"),
    ("tu peux utiliser sqlite", "decided"),
    ("plutôt sqlite", "decided"),
    ("fais-le plutôt avec fetch", "decided"),
    ("je prendrais la version avec tailwind", "decided"),
    ("mieux vaut utiliser sqlite", "decided"),
    # going with an option: "let's take X", "X, then"
    ("va pour postgres", "decided"),
    ("bon, postgres alors", "decided"),
    # "X, not Y"; more negative imperatives
    ("pnpm, pas npm", "decided"),
    ("évitez les variables globales", "constraint"),
    # an order that asks for an "ok?" still orders
    ("ne touche pas aux tests, d'accord ?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # asked, not settled (session 18's entries must not read them)
    "où est la config ?",
    # questions, with and without their mark; a tag question
    "tu peux corriger le test ?",
    "comment faire pour ne pas utiliser le cache",
    "pourquoi tu n'as pas utilisé pnpm ?",
    "que penses-tu d'utiliser redis",
    "ça ne doit pas être nul ici, non ?",
    # requests for work with no rule in them
    "corrige l'erreur du login",
    "ajoute un bouton enregistrer",
    "lance les tests",
    # narration: a subject before "ne", "toujours"/"jamais" describing
    "le test échoue parce qu'il n'utilise pas le mock",
    "il ne touche pas au cache",
    "ça ne marche jamais",
    "ça ne marche toujours pas",
    "le build échoue toujours sur la CI",
    "je ne peux pas supprimer ce fichier",
    "toujours le même problème",
    "jamais vu cette erreur",
    "pas d'erreur dans le log",
    # reported speech: an error or a tool says it
    "l'erreur dit : n'utilise pas cette version",
    "le linter dit de ne pas utiliser var",
    "il ne faut pas oublier que le serveur est lent",
    # fillers and impatience
    "pas de souci",
    "pas mal",
    "pas encore",
    "ne t’inquiète pas",
    "je ne sais pas",
    "merci !",
    "dépêche-toi",
    # no option named: "let's assume", "then go", "that, then"
    "bon, ok alors",
    # "..., not so bad": no option turned down
    "merci, pas mal",
    "d'accord, pas de souci",
    # a "no" that only reports the work still fails
    "non, ça ne marche toujours pas",
    "pas mal, mais lent",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex répond :",
    "Le collègue a répondu :",
    "Le linter dit :",
    "Le relecteur a écrit :",
    "Les commentaires de la PR :",
    "La relecture de Codex :",
    "La revue :",
    "La sortie du build :",
    "Les erreurs :",
    "Le message du compilateur :",
    "Les résultats :",
    "La réponse de ChatGPT :",
    "Voici la review :",
    "Ci-dessous :",
    "Le texte suivant :",
    "Texte collé :",
    "Copilot suggère :",
    "Le rapport :",
]
