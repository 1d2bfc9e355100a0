package io.inferencegateway.tokenize;

/**
 * A chat template that could not be rendered for a request: the template's own refusal ({@code raise_exception}, as
 * when a conversation does not alternate user and assistant), whose message the client gets, or an error in it.
 */
public final class TemplateException extends RuntimeException {

    TemplateException(String message) {
        super(message);
    }
}
