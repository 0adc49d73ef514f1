"""Portuguese (capture/lang_pt.py), written from the labelling rules: standing instructions in
the language's real negative imperative (the subjunctive: "não corrija", "nunca apague"),
typed with or without accents; refusals and corrections; choices. What states nothing (a
question with or without its mark, a request for work, narration, thanks, impatience) and
what the user relays is never a record."""

from __future__ import annotations

import pytest

from capture.test_languages import EXAMPLES
from context_memory.capture import lang_pt
from context_memory.capture.prompts import classify
from helpers.language_cases import entries_without_example, relayed_forms

CAPTURED: list[tuple[str, str]] = [
    # standing instructions: a negative imperative, with and without accents
    ("não corrija os testes, corrija o código", "constraint"),
    ("não faça commit sem rodar os testes", "constraint"),
    ("nao mexa no arquivo de config", "constraint"),
    ("não remova os comentários", "constraint"),
    ("não crie arquivos novos", "constraint"),
    ("por favor, não instale mais dependências", "constraint"),
    ("não mexe no banco de produção", "constraint"),
    ("não esqueça de atualizar o changelog", "constraint"),
    ("lembre-se de rodar o lint", "constraint"),
    # always / never where they lead the sentence, or follow their verb; from now on
    ("nunca apague arquivos de migração", "constraint"),
    ("e sempre rode os testes antes", "constraint"),
    ("responda sempre em português", "constraint"),
    ("daqui pra frente use pnpm", "constraint"),
    # avoid, forbidden, mandatory, whenever
    ("evite usar variáveis globais", "constraint"),
    ("é proibido usar any", "constraint"),
    ("é obrigatório rodar o lint antes do commit", "constraint"),
    ("toda vez que mudar o schema, rode as migrações", "constraint"),
    # only, keep
    ("só mexa no arquivo main.py", "constraint"),
    ("apenas altere o frontend", "constraint"),
    ("você precisa manter a compatibilidade", "constraint"),
    ("preciso que você use pnpm", "constraint"),
    # refusals and corrections
    ("não é necessário adicionar logs", "rejected"),
    ("não era isso que eu queria", "rejected"),
    ("não gosto desse layout", "rejected"),
    ("isso está errado", "rejected"),
    ("ainda está errado", "rejected"),
    ("tá errado, a porta é 8080", "rejected"),
    ("eu disse para usar pnpm", "rejected"),
    ("pule a etapa de cache", "rejected"),
    ("desfaz essa mudança", "rejected"),
    ("volte como estava antes", "rejected"),
    # choices
    ("vamos de vitest", "decided"),
    ("pode usar o sqlite", "decided"),
    ("melhor usar o sqlite", "decided"),
    ("escolhi a segunda opção", "decided"),
    ("troca para o vite", "decided"),
    # going with an option: "let's take X", "X, then"
    ("ok, postgres então", "decided"),
]

NOT_CAPTURED = [
    # questions, with and without their mark; a tag question
    "você pode corrigir o teste?",
    "como faço para não usar o cache",
    "por que você não usou o pnpm?",
    "o que você acha de usar redis",
    "ele não deve ser nulo aqui, certo?",
    # requests for work with no rule in them
    "corrija o erro no login",
    "rode os testes",
    "pode rodar os testes pra mim",
    # narration: "nunca"/"sempre" describing, not instructing
    "isso nunca funcionou",
    "o build sempre falha no CI",
    "toda vez que eu rodo o teste ele falha",
    "ainda não funciona",
    "não consigo abrir o arquivo",
    "sempre acontece a mesma coisa",
    "nunca tinha visto esse erro",
    # what should merely be true; a request for work
    "deveria funcionar agora",
    "tem que ter um erro no parser",
    "preciso que você revise o código",
    # reported speech: an error or a tool says it
    "o erro diz: não use esta versão",
    "o linter diz que não pode usar var",
    # fillers and impatience
    "nao sei",
    "obrigado!",
    "anda logo",
    "não entendi",
    # no option named: "let's assume", "then go", "that, then"
    "ok, beleza então",
]


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_portuguese_directive_is_captured_with_its_kind(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind
    assert found.quote == text


@pytest.mark.parametrize("text", NOT_CAPTURED)
def test_what_states_nothing_in_portuguese_is_not_captured(text: str) -> None:
    assert classify(text) is None


@pytest.mark.parametrize(("text", "kind"), CAPTURED)
def test_a_portuguese_directive_the_user_relays_is_not_captured(text: str, kind: str) -> None:
    for relayed in relayed_forms("o log mostrou isto", text):
        assert classify(relayed) is None, relayed


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # a Spanish text the Portuguese table also reads (shared words and letters)
        ("Como te dije, el código está en src", "rejected"),
        # "porque" (because) opens no question
        ("porque o cache quebra, não use redis", "constraint"),
        # informal: no punctuation, an English identifier
        ("nao usa o axios usa fetch", "constraint"),
    ],
)
def test_portuguese_cues_read_neighbouring_and_informal_texts(text: str, kind: str) -> None:
    found = classify(text)
    assert found is not None, text
    assert found.kind == kind


def test_let_us_go_again_is_no_choice_in_either_language() -> None:
    assert classify("vamos de novo") is None
    assert classify("vamos de nuevo") is None


def test_every_portuguese_entry_has_an_example() -> None:
    assert entries_without_example(lang_pt, CAPTURED + EXAMPLES["pt"]) == []
