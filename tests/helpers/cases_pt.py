"""Portuguese prompts for capture/languages/pt.txt (the form of this module:
tests/helpers/language_cases.py)."""

from __future__ import annotations

RELAY_SAID = "o log mostrou isto"

CAPTURED: list[tuple[str, str]] = [
    # the place chosen, a name, a value, a rule for every one (session 18)
    ("coloca a configuração em config/", "decided"),
    ("renomeia o projeto para kata", "decided"),
    ("deixa o título azul", "decided"),
    ("todas as datas em UTC", "constraint"),
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
    # "X, not Y"; more negative imperatives
    ("please use pnpm, não npm", "decided"),
    # an order that asks for an "ok?" still orders
    ("não mexa nos testes, ok?", "constraint"),
]

NOT_CAPTURED: list[str] = [
    # asked or told, not settled (session 18's entries must not read them)
    "onde coloco a configuração?",
    "todas as provas passaram",
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
    # "..., not so bad": no option turned down
    "sim, não tem problema",
    "ok, não sei",
    # a "no" that only reports the work still fails
    "não, ainda não funciona",
]

# Lines that introduce text relayed from elsewhere (a review, another AI's answer, a log):
# a directive after one is not the user's (at least one for every RELAY_INTROS entry).
RELAY_LINES: list[str] = [
    "O Codex respondeu:",
    "O revisor responde:",
    "O outro modelo disse:",
    "O linter diz:",
    "Meu colega escreveu:",
    "O revisor comentou:",
    "Os comentários do PR:",
    "A revisão do Codex:",
    "A saída do build:",
    "Os erros do compilador:",
    "A mensagem de erro:",
    "Os resultados:",
    "A resposta do ChatGPT:",
    "Aqui está a revisão:",
    "Segue o log:",
    "O texto abaixo:",
    "O seguinte:",
    "Texto colado:",
    "O Copilot sugere:",
    "O Copilot sugeriu:",
    "O relatório:",
]
