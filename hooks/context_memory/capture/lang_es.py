"""Spanish: directive and choice patterns (``^no,`` is read by the English table)."""

DIRECTIVES = (
    # refusals and corrections
    (
        r"\b(?:eso no es|no es (?:eso|así|lo que)|no me gusta|ya te (?:lo )?dije|como te dije)\b",
        "rejected",
    ),
    (r"\b(?:no hace falta|no es necesario|olvídalo|déjalo así)\b", "rejected"),
    # "no era eso", "no necesitamos X", "eso está mal", "estás equivocado", "te lo dije"
    (
        r"\bno era (?:eso|así|lo que)\b|\bno necesitamos\b|\binnecesario\b|"
        r"^(?:no,? )?(?:eso |esto )?está mal\b|\b(?:sigue|todavía está|aún está) mal\b|"
        r"\b(?:eso|esto) (?:está|es) (?:mal|incorrecto)\b|"
        r"\bestás equivocad[oa]\b|\b(?:te (?:lo )?dije|te pedí|ya lo dije)\b",
        "rejected",
    ),
    # skip it, undo it: "sáltate el caché", "omite los tests", "deshaz ese cambio"
    (
        r"^(?:por favor,? )?(?:sáltate|salta|omite|descarta|ignora|quita) "
        r"(?:el|la|los|las|ese|esa|esos|esas|este|esta|esto|eso|lo)\b|"
        r"^(?:por favor,? )?(?:deshaz|revierte|vuelve a como estaba)\b",
        "rejected",
    ),
    (r"\bno \S+(?: \S+)?,? sino\b", "rejected"),
    # "usa pnpm, no npm" (X, not Y): the choice of X
    (
        r"[,，]\s*no (?!eso\b|esto\b|ahora\b|todavía\b|sé\b|se\b|es\b|hay\b|más\b|funciona\b|"
        r"sirve\b|puedo\b|problem\w*|worries\b)[A-Za-z][\w.+#-]*[.!]*$",
        "decided",
    ),
    # standing instructions
    # "siempre"/"nunca" bind only where they lead the sentence or follow the verb they
    # qualify: "eso nunca funcionó", "el build siempre falla" describe, they instruct nothing
    (
        r"(?:^|[,;:] |\b(?:y|pero|por favor,?) )(?:nunca|jamás) (?:(?:lo|la|los|las|le|les|me|te|"
        r"se|nos) )?\w+(?:es|as)\b|"
        r"(?:^|[,;:] |\b(?:y|pero|por favor,?) )siempre\b(?! (?:me|te|se|nos|le|les|lo|la|los|"
        r"las|falla|pasa|sale|da|aparece|funciona|tarda|peta|rompe|hay|es|está|fue|ha|he|había|"
        r"tengo|tiene|estoy)\b)|"
        r"\b(?:usa|corre|ejecuta|haz|responde|escribe|mantén|verifica|pregunta|confirma|prueba) "
        r"(?:siempre|nunca)\b|\b(?:a partir de ahora|de ahora en adelante|desde ahora|"
        r"en adelante)\b",
        "constraint",
    ),
    # "cada vez que cambies X, corre Y" (whenever X, do Y): the rule names what to do
    (
        r"^(?:cada vez|siempre) que [^,]{3,60}, (?:corre|ejecuta|actualiza|usa|haz|pon|revisa|"
        r"avísame|pregunta|verifica|comprueba|agrega|añade|escribe|documenta|guarda|crea|borra|"
        r"limpia|reinicia)\b",
        "constraint",
    ),
    (
        r"\b(?:asegúrate de|no debes|debes|tienes que|mantén|sin (?:usar|añadir|cambiar|romper))\b",
        "constraint",
    ),
    # a negative imperative: "no" + the subjunctive (tú and usted), a pronoun between
    (
        r"\bno (?:(?:lo|la|los|las|le|les|me|te|se|nos) )?(?:uses|utilices|utilice|hagas|haga|"
        r"cambies|cambie|toques|toque|añadas|añada|agregues|agregue|instales|instale|borres|"
        r"borre|elimines|elimine|modifiques|modifique|crees|corrijas|corrija|ejecutes|ejecute|"
        r"subas|pongas|ponga|metas|rompas|escribas|muevas|renombres|inventes|generes|edites|"
        r"reescribas|actualices|implementes|fuerces|ignores|saltes|reemplaces|comentes|quites|"
        r"mezcles|despliegues|publiques|mandes|envíes|toquéis|uséis|hagáis|uséis|usen|hagan|"
        r"toquen|cambien)\b",
        "constraint",
    ),
    # "evita X" (avoid), "prohibido usar X", "solo toca X" (only), "recuerda X", "no olvides X"
    (
        r"^(?:por favor,? )?evita\b|\bevita (?:usar|añadir|agregar|crear|cambiar|tocar|"
        r"modificar)\b|\b(?:prohibido|obligatorio) (?:\w+ar|\w+er|\w+ir)\b|\bobligatoriamente\b|"
        r"\b(?:solo|sólo|únicamente|unicamente) (?:toca|modifica|cambia|edita|corrige|arregla|"
        r"trabaja en)\b|^(?:y )?(?:recuerda|acuérdate de|acuerdate de)\b|"
        r"\bno (?:olvides|te olvides de|dejes de)\b",
        "constraint",
    ),
    # ("solo en Windows" reports where a bug shows: only "solo usa X" instructs)
    (r"\bno quiero\b|\bsolo (?:usa|utiliza)\b", "constraint"),
    (
        r"\b(?:resp[oó]nde|escr[ií]be|h[aá]bla|cont[eé]sta)(?:me)? (?:siempre )?en "
        r"(?:español|inglés)\b",
        "constraint",
    ),
    (r"\bquiero que (?:uses|utilices|mantengas|sigas|hagas|pongas|dejes)\b", "constraint"),
    # what the work must do: "hay que …", "debería …", "tiene que …"
    # (not what should merely be true: "debería funcionar ahora", "tiene que haber un error")
    (
        r"\bhay que\b(?! (?:ver|esperar|revisar)\b)|"
        r"\b(?:debería|deberías|tiene que|tienen que)\b(?! (?:funcionar|haber|estar|ser un|"
        r"andar|pasar|salir|dar)\b)|\bnecesito que (?:uses|utilices|mantengas|sigas|no)\b",
        "constraint",
    ),
    # "nada de X" (no X at all), "sin nuevas X" (no new X)
    (
        r"^nada de (?!nada|errores?|cambios|resultados?|respuesta|éxito|nuevo)\w|"
        r"^sin (?:nuevas|nuevos|más) \w",
        "constraint",
    ),
    # choices
    (
        r"\b(?:en lugar de|en vez de|mejor (?:usa|usemos|utiliza|haz|hagamos)|usemos|utilicemos)\b",
        "decided",
    ),
    (
        r"\b(?:vamos con|vamos a usar|prefiero|cámbialo a|cambia a|quedémonos con|me quedo con)\b",
        "decided",
    ),
    # "elijo X", "opto por X", "quédate con X", "puedes usar X", "mejor con X"
    (
        r"\b(?:elijo|escojo|elegí|escogí|opto por|quédate con|quedate con) \S|"
        r"^(?:tú |tu )?puedes usar\b|^(?:es )?mejor (?:con|usar|utilizar) \S|"
        # "quedamos en X" (we settle on X), "dale con X", "bueno, X entonces" (X, then)
        r"\bquedamos en (?!eso\b|esto\b|ello\b|lo\b|que\b)\S|\bdale con \S|"
        r"^(?:ok|bueno|vale|perfecto)[,. ]+(?!ok\b|bueno\b|vale\b)[\w.+#-]+ entonces[.!]*$",
        "decided",
    ),
    # "como sugieres" (as you suggest); "sí, pero ..." (yes, but ...)
    (
        r"\bcomo (?:sugieres|sugeriste|recomiendas|recomendaste)\b|"
        r"^(?:sí|vale|ok|de acuerdo|perfecto)[,!. ]+pero\b",
        "decided",
    ),
    # a choice stated as an order: "usa SQLite", "llámalo ctx-guard"; "con X basta"
    (
        r"^(?:(?:ok|vale|bueno|sí)[,. ]+)?(?:usa|utiliza|usemos|llámalo|nómbralo)\s+\S|"
        r"\bcon \S+(?: \S+)? (?:basta|es suficiente|está bien)\b",
        "decided",
    ),
)

AGENT_CHOICES = (r"\b(?:en lugar de|en vez de|para evitar|mejor que|cambiando a)\b",)
AGENT_ACTS = (
    r"^(?:voy a|usaré|utilizaré|cambiaré|reemplazaré)\b|\b(?:he (?:cambiado|reemplazado|usado)|"
    r"cambié|reemplacé|usaré|utilizaré)\b",
)

PROPOSALS = (
    r"\b(?:podríamos|deberíamos|qué tal si|y si (?:usamos|cambiamos|hacemos)|por qué no)\b",
    r"\bno (?:sería|es) mejor\b",
)

DEFERS = (
    # no sé, depende, luego, hay que discutirlo, explícame, un ejemplo: nothing settled yet
    r"\b(?:no sé|no se|no estoy segur[oa]|depende|luego|después|más tarde|discutir|hablemos|"
    r"expl[ií]ca|ejemplo)\b",
)

VETOES = (
    # a "no" that only reports the work still fails: nothing turned down
    # ("no, sigue sin funcionar")
    r"^no[,!.]?\s+(?:sigue|todavía|aún|funciona|anda|va|sale)\b",
    r"^(?:gracias|muchas gracias|perfecto|genial|excelente)\b[^,]{0,30}$",
    # reported speech: what an error, a tool or someone else says ("el error dice: no uses ...")
    r"\b(?:dice|dicen|decía|pone|muestra|aparece)(?:\s*:|\s+que\b)",
    # a question typed without its marks ("cómo hago para no usar el caché")
    r"^¿|^(?:cómo|como) (?:hago|se|puedo|podemos|puedes|funciona|es|está|están|lo|la)\b|"
    r"^(?:por qué|porqué|qué|cuál|cuáles|dónde|cuándo)\b",
    # a tag question on what is true ("..., ¿verdad?"): it asks, it rules nothing (an order
    # that asks for an "ok?" still orders)
    r",\s*¿?\s*(?:verdad|no|cierto|sí)\s*[?？]\s*$",
)

_LEAD = (
    r"^(?:(?:ok|vale|sí|si|bueno|perfecto)[,!. ]+)*(?:(?:vamos|voy) con|elijo|prefiero|"
    r"me quedo con|usa|haz|hagamos)?\s*"
)
PICKS = (
    _LEAD
    + r"(?:la |el )?(?:opción|alternativa|propuesta)\s*(?P<n>[1-9]|[a-f])\b(?P<rest>[^?¿]{0,60})$",
    _LEAD + r"(?:la|el) (?P<n>primera|primero|segunda|segundo|tercera|tercero|última|último)\b"
    r"(?P<rest>[^?¿]{0,40})$",
)
ORDINALS = {
    "primera": 1, "primero": 1, "segunda": 2, "segundo": 2, "tercera": 3, "tercero": 3,
    "última": -1, "último": -1,
}  # fmt: skip

# A question typed without a question mark (¿, cómo, qué, por qué): prompts.asks_only.
QUESTIONS = (r"^¿|^(?:cómo|qué|por qué|cuál|cuáles|dónde|cuándo|quién)\b",)

# A reply that only says go on (continúa, sigue): after a call rejected with no reason it
# carries no instruction, and the labelling rules count no item (set 2, rule 3).
GOES_ON = (r"(?:(?:ok|vale|sí)[,. ]*)?(?:continúa|continua|sigue)",)

# A rejection's typed reason that starts by saying yes ("yes and be aware I use nvm",
# "ok but show hidden files too"): unless the rest states a directive, it turns nothing down.
ACCEPTS = (r"^(?:sí|vale|claro|de acuerdo|ok)\s*[,.!]",)

# A short reply that names one of the offered options by its words picks it when it
# also approves or chooses (bien, vamos, usa, prefiero): prompts.picked_option.
CHOOSES = (
    r"\b(?:bien|perfecto|genial|vale|sí|si|ok|usa|usemos|vamos|elijo|prefiero|hazlo|"
    r"me quedo|mejor|de acuerdo)\b",
)

AFFIRMS = (
    r"^(?:(?:sí|si|vale|ok|perfecto|genial|de acuerdo|dale)[,!. ]*)*(?:hazlo|adelante|haz eso|"
    r"hagámoslo|eso sería perfecto|suena bien|como recomiendas)?[.! ]*$",
)

# Words (regular-expression sources) that, on a line ending with a colon, introduce text
# relayed from elsewhere (a review, another AI's answer, a log): what follows is not the
# user's words (capture/cues.PASTE_INTRO).
RELAY_INTROS = tuple(
    (
        "respondió|responde|dijo|dice|escribió|escribe|comentó|comentarios?|revisión|log|"
        "salida|errore?s?|mensaje|resultados?|respuesta|aquí está|aquí tienes|abajo|"
        "siguiente|pegado|sugiere|sugirió|reporte|informe"
    ).split("|")
)

STANCES = (
    ("no uses", "out"), ("no utilices", "out"), ("nunca uses", "out"),
    ("usa", "pref"), ("utiliza", "pref"), ("usemos", "pref"), ("prefiero", "pref"),
    ("cambia a", "pref"),
    ("en lugar de", "pref-out"), ("en vez de", "pref-out"),
)  # fmt: skip
SPACED = True

NAMES = {"español": "spanish", "inglés": "english"}

RANGES: tuple[tuple[str, str], ...] = ()
LETTERS = "ñ¿¡áéíóú"
WORDS: frozenset[str] = frozenset(
    (
        "que los las del para usa uses utiliza siempre nunca quiero mejor vamos hazlo "
        "pero esto eso debes tienes mantén sino opción primera primero vez lugar gusta falta "
        "sigue continúa prefiero usemos llámalo basta carpeta archivo código está esto mal dije "
        "evita sólo únicamente recuerda olvides borres toques hagas cambies modifiques "
        "agregues necesitamos ahora cada puedes elijo quédate también aquí hace necesario "
        "corrijas crees ejecutes subas instales elimines pongas omite sáltate deshaz revierte "
        "utilices añadas obligatorio prohibido quedamos dale entonces bueno instale nada favor"
    ).split()
)
