"""Messages in a language the assistant does not answer in (it answers in English and Chinese): Japanese or Korean
script, or a message in Latin letters made mostly of another language's commonest words ("¿Puedo devolver un
producto?", "Puis-je retourner un article ?"). Read as English, they found no policy and were refused as out of
scope, in English only; the reply now says which languages the assistant answers in, in both."""
from __future__ import annotations

import re

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")
_LATIN_WORD = re.compile(r"[a-zà-ÿ]+", re.I)
# Each language's commonest words that English does not use too ("a", "as", "do" and "die" are English words).
_COMMON_WORDS = {
    "Spanish": "el la los las un una unos de del que por para puedo puede mi mis es con cómo como dónde donde "
               "cuándo cuando qué hola gracias pedido devolver envío producto quiero tengo está hay su usted",
    "French": "le la les un une des du je puis ma mes pour avec comment où quand bonjour merci commande "
              "retourner produit livraison suis vous nous ai pas",
    "German": "der das ich ein eine mein meine ist und nicht kann wie wo wann hallo danke bestellung zurückgeben "
              "lieferung bitte haben sie",
    "Portuguese": "os um uma da que por para posso meu minha é com como onde quando olá obrigado pedido devolver "
                  "produto entrega você não",
}
_WORDS = {language: frozenset(words.split()) for language, words in _COMMON_WORDS.items()}
MIN_COMMON_WORDS = 2  # of the language's common words, and
MIN_COMMON_SHARE = 0.4  # of the message's words

OTHER_LANGUAGE_REPLY = "Sorry, I can only answer in English or Chinese. 抱歉，我只能用英文或中文回答。"


def other_language(text: str) -> str | None:
    """The language of ``text`` where it is neither English nor Chinese ("Japanese", "Korean", "Spanish", "French",
    "German", "Portuguese"), else None. A Latin-script message counts as another language when at least
    `MIN_COMMON_WORDS` of its words, and `MIN_COMMON_SHARE` of them, are that language's commonest words: an
    English message with a name or two in it ("Do you ship to Los Angeles?") stays English."""
    if _KANA.search(text):
        return "Japanese"
    if _HANGUL.search(text):
        return "Korean"
    words = [word.lower() for word in _LATIN_WORD.findall(text)]
    for language, common in _WORDS.items():
        found = sum(word in common for word in words)
        if found >= MIN_COMMON_WORDS and found >= MIN_COMMON_SHARE * len(words):
            return language
    return None
