print("spy-client")
