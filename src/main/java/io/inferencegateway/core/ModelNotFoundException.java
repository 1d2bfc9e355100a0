package io.inferencegateway.core;

/** 404 for a model no pool serves; thrown from the inference route's content-based router. */
public class ModelNotFoundException extends GatewayException {

    public ModelNotFoundException(String model) {
        super(404, "invalid_request_error", "model_not_found", "model", "The model '" + model + "' does not exist");
    }
}
