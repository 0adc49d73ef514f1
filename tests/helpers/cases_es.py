"""Spanish prompts for capture/languages/es.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "el log muestra esto"

CAPTURED: list[tuple[str, str]] = [
    # the place chosen, a name, a value, a rule for every one (session 18)
    ("pon la configuración en config/", "decided"),
    ("renombra el proyecto a kata", "decided"),
    ("haz el título azul", "decided"),
    ("todas las fechas en UTC", "constraint"),
    # a negative imperative: tú, usted, a pronoun between
    ("no hagas commit sin correr los tests", "constraint"),
    ("no toques el archivo de configuración", "constraint"),
    ("no modifiques los tests", "constraint"),
    ("no corrijas los tests, corrige el código", "constraint"),
    ("no lo subas a main", "constraint"),
    ("por favor no instale nada", "constraint"),
    ("no olvides correr los tests", "constraint"),
    # always / never where they lead the sentence or follow their verb; from now on
    ("nunca borres datos de producción", "constraint"),
    ("responde siempre en español", "constraint"),
    ("a partir de ahora usa pnpm", "constraint"),
    ("desde ahora escribe los tests primero", "constraint"),
    # whenever ..., do ...
    ("cada vez que cambies el esquema, corre las migraciones", "constraint"),
    # avoid, forbidden, mandatory, only, remember
    ("evita usar variables globales", "constraint"),
    ("está prohibido usar any", "constraint"),
    ("es obligatorio correr el linter", "constraint"),
    ("solo toca el archivo main.py", "constraint"),
    ("recuerda actualizar el changelog", "constraint"),
    # what is needed of the work, "nada de X" (no X at all)
    ("necesito que uses pnpm", "constraint"),
    ("nada de emojis en los commits", "constraint"),
    # refusals and corrections
    ("no es necesario agregar logs", "rejected"),
    ("no necesitamos redis", "rejected"),
    ("no era eso lo que quería", "rejected"),
    ("eso está mal", "rejected"),
    ("sigue mal, el puerto es otro", "rejected"),
    ("está mal, el puerto es 8080", "rejected"),
    ("te dije que usaras pnpm", "rejected"),
    ("estás equivocado, el archivo es otro", "rejected"),
    # skip it, undo it
    ("sáltate la parte del caché", "rejected"),
    ("omite los tests de integración", "rejected"),
    ("deshaz ese cambio", "rejected"),
    ("revierte los cambios del parser", "rejected"),
    # choices
    ("elijo la segunda opción", "decided"),
    ("quédate con la versión simple", "decided"),
    ("puedes usar sqlite", "decided"),
    ("mejor con sqlite", "decided"),
    # going with an option: "let's take X", "X, then"
    ("quedamos en postgres", "decided"),
    ("dale con postgres", "decided"),
    ("bueno, postgres entonces", "decided"),
    # "X, not Y"; more negative imperatives
    ("mejor pnpm, no npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("no toques los tests, ¿vale?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # asked or told, not settled (session 18's entries must not read them)
    "¿dónde pongo la configuración?",
    "todas las pruebas pasan",
    # questions, with and without their marks; a tag question
    "¿puedes corregir el test?",
    "puedes corregir el test?",
    "cómo hago para no usar el caché",
    "como hago para no usar el cache",
    "¿por qué no usaste pnpm?",
    "qué opinas de usar redis",
    "esto debe ser nulo aquí, ¿verdad?",
    # requests for work with no rule in them
    "corrige el error del login",
    "agrega un botón de guardar",
    "corre los tests",
    # narration: "nunca"/"siempre" describing; "no" + a verb that states a fact
    "eso nunca funcionó",
    "el build siempre falla en CI",
    "cada vez que corro los tests, falla el login",
    "todavía no funciona",
    "el test falla porque no usa el mock",
    "no puedo abrir el archivo",
    "falla solo en Windows",
    "siempre me pasa lo mismo",
    "nunca había visto este error",
    # what should merely be true; a request for work
    "debería funcionar ahora",
    "tiene que haber un error en el parser",
    "necesito que revises el código",
    # reported speech: an error or a tool says it
    "el error dice: no uses esta versión",
    "el linter dice que no uses var",
    # fillers and impatience
    "no sé",
    "gracias!",
    "apúrate",
    "no entiendo",
    # no option named: "let's assume", "then go", "that, then"
    "quedamos en eso",
    "bueno, vale entonces",
    # "..., not so bad": no option turned down
    "está bien, no problem",
    "hecho, no hay errores",
    # a "no" that only reports the work still fails
    "no, sigue sin funcionar",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "Codex respondió:",
    "El revisor responde:",
    "El otro modelo dijo:",
    "El linter dice:",
    "Mi compañero escribió:",
    "Gemini escribe:",
    "El revisor comentó:",
    "Los comentarios del PR:",
    "La revisión de Codex:",
    "El log de CI:",
    "La salida del build:",
    "Los errores del compilador:",
    "El mensaje de error:",
    "Los resultados:",
    "La respuesta de ChatGPT:",
    "Aquí está la revisión:",
    "Aquí tienes lo que salió:",
    "Lo de abajo:",
    "Lo siguiente:",
    "Texto pegado:",
    "Copilot sugiere:",
    "Copilot sugirió:",
    "El reporte:",
    "El informe de seguridad:",
]
