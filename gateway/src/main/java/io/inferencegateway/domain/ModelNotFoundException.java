package io.inferencegateway.domain;

/** No pool serves the model; thrown by the inference route's content-based router, with the model as message. */
public class ModelNotFoundException extends GatewayError {

    public ModelNotFoundException(String model) {
        super(Reason.MODEL_NOT_FOUND, "model", "The model '" + model + "' does not exist");
    }
}
