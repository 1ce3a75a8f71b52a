// The English half of the embedded bank, in the same "civilian|spy" line format as the Chinese half. Pairs that only
// make sense to someone who knows Taiwan are kept together in the category "Taiwan", so a table can leave them out.
extension EmbeddedBank {
    static let englishText = """
        ## Food
        bread|cake
        pizza|pasta
        hamburger|sandwich
        hot dog|corn dog
        fried rice|fried noodles
        ramen|udon
        sushi|sashimi
        dumpling|spring roll
        cookie|cracker
        french fries|potato chips
        butter|cheese
        ketchup|mustard
        salt|sugar
        soy sauce|vinegar
        steak|pork chop
        fried chicken|roast chicken
        shrimp|crab
        salmon|tuna
        bacon|ham
        omelet|scrambled eggs
        donut|bagel
        croissant|muffin
        soup|stew
        coleslaw|potato salad
        taco|burrito
        granola|trail mix
        honey|maple syrup
        jam|peanut butter
        toast|English muffin
        lobster|oyster
        curry|chili
        pie|quiche
        breakfast|brunch
        meatball|meatloaf
        hot pot|fondue
        nachos|quesadilla
        risotto|paella
        pretzel|breadstick
        macaroni and cheese|lasagna

        ## Desserts
        chocolate|caramel
        ice cream|frozen yogurt
        eclair|cream puff
        pancake|waffle
        popcorn|cotton candy
        cheesecake|tiramisu
        brownie|fudge
        macaron|meringue
        cupcake|cinnamon roll
        lollipop|chewing gum
        marshmallow|gummy bear
        sundae|popsicle

        ## Drinks
        coffee|tea
        milk|eggnog
        soy milk|oat milk
        cola|lemonade
        beer|wine
        whiskey|brandy
        juice|smoothie
        latte|cappuccino
        espresso|americano
        green tea|black tea
        bubble tea|iced tea
        hot chocolate|warm milk
        sparkling water|mineral water
        champagne|prosecco
        vodka|gin
        rum|tequila
        energy drink|sports drink
        milkshake|ice cream float
        cocktail|mocktail
        tonic water|ginger ale
        yogurt drink|kefir
        root beer|cream soda
        sake|soju
        sangria|punch
        matcha|chai

        ## Fruit
        apple|pear
        banana|plantain
        orange|tangerine
        lemon|lime
        strawberry|raspberry
        blueberry|grape
        watermelon|cantaloupe
        peach|plum
        cherry|cranberry
        mango|papaya
        pineapple|coconut
        kiwi|passion fruit
        grapefruit|pomelo
        apricot|nectarine
        avocado|olive
        fig|date
        durian|jackfruit
        blackberry|mulberry
        tomato|persimmon
        pomegranate|guava
        raisin|prune

        ## Vegetables
        carrot|parsnip
        potato|turnip
        beet|radish
        onion|garlic
        cabbage|lettuce
        spinach|kale
        broccoli|cauliflower
        cucumber|zucchini
        pumpkin|sweet potato
        mushroom|eggplant
        corn|peas
        green pepper|chili pepper
        celery|asparagus
        ginger|turmeric
        bean sprouts|green beans
        leek|scallion
        basil|mint
        artichoke|Brussels sprouts
        parsley|cilantro
        lentils|chickpeas

        ## Animals
        cat|dog
        tiger|lion
        wolf|fox
        rabbit|hamster
        mouse|rat
        horse|donkey
        pig|cow
        sheep|goat
        chicken|duck
        goose|swan
        eagle|hawk
        owl|bat
        parrot|peacock
        penguin|puffin
        dolphin|whale
        shark|crocodile
        frog|toad
        snake|lizard
        turtle|armadillo
        butterfly|moth
        bee|wasp
        ant|termite
        mosquito|fly
        spider|scorpion
        octopus|squid
        panda|koala
        monkey|gorilla
        giraffe|zebra
        elephant|hippo
        camel|llama
        kangaroo|wallaby
        bear|raccoon
        deer|moose
        hedgehog|porcupine
        dragon|phoenix
        pigeon|sparrow
        goldfish|carp
        snail|slug
        seal|walrus
        cheetah|leopard
        rhino|bison
        squirrel|beaver
        jellyfish|starfish
        ladybug|firefly
        crow|magpie
        turkey|ostrich
        flamingo|pelican
        sloth|anteater
        skunk|weasel
        earthworm|caterpillar
        otter|platypus

        ## Household
        pillow|cushion
        blanket|sleeping bag
        towel|bath mat
        umbrella|raincoat
        scissors|knife
        bowl|plate
        chopsticks|fork
        spoon|ladle
        mirror|window
        watch|clock
        alarm clock|timer
        glasses|magnifying glass
        backpack|suitcase
        toilet paper|tissues
        soap|body wash
        shampoo|conditioner
        toothbrush|comb
        hair dryer|curling iron
        fan|air conditioner
        fridge|pantry
        television|computer monitor
        sofa|bed
        candle|flashlight
        lighter|matches
        key|padlock
        trash can|recycling bin
        mop|broom
        vacuum cleaner|robot vacuum
        washing machine|dryer
        microwave|oven
        kettle|coffee maker
        charger|power bank
        headphones|speaker
        curtain|blinds
        wallet|money clip
        doorbell|door knocker
        desk|dining table
        closet|shoe rack
        lamp|chandelier
        hanger|clothespin
        nail clippers|tweezers
        thermos|mug
        cutting board|rolling pin
        iron|lint roller
        rug|doormat

        ## Stationery and Tools
        pencil|crayon
        marker|highlighter
        eraser|correction tape
        tape|glue
        sticky note|notebook
        stapler|paper clip
        calculator|abacus
        envelope|postcard
        screwdriver|wrench
        hammer|saw
        ladder|stool
        ruler|protractor

        ## Jobs
        doctor|nurse
        teacher|professor
        police officer|security guard
        lawyer|judge
        chef|baker
        actor|singer
        taxi driver|bus driver
        firefighter|lifeguard
        reporter|news anchor
        writer|poet
        painter|photographer
        engineer|designer
        mail carrier|courier
        barber|hairdresser
        farmer|fisherman
        waiter|bartender
        flight attendant|pilot
        president|mayor
        astronaut|scientist
        magician|clown
        soldier|bodyguard
        detective|spy
        zookeeper|park ranger
        dentist|vet
        architect|carpenter
        accountant|bank teller
        tour guide|travel agent
        model|influencer
        programmer|hacker
        nanny|butler
        plumber|electrician
        librarian|archivist
        pharmacist|nutritionist
        locksmith|mechanic
        gardener|janitor
        psychologist|fortune teller
        barista|sommelier
        real estate agent|insurance agent
        dancer|cheerleader

        ## Places
        hospital|clinic
        library|bookstore
        supermarket|convenience store
        movie theater|concert hall
        park|playground
        zoo|aquarium
        restaurant|cafe
        airport|train station
        farmers market|flea market
        beach|swimming pool
        hotel|hostel
        bank|post office
        gym|stadium
        church|temple
        museum|art gallery
        karaoke bar|sports bar
        shopping mall|department store
        bathroom|kitchen
        bedroom|living room
        office|meeting room
        prison|police station
        desert|prairie
        hot spring|sauna
        castle|palace
        island|peninsula
        North Pole|South Pole
        farm|ranch
        amusement park|water park
        lighthouse|windmill
        bakery|flower shop
        pharmacy|optician
        Disneyland|Universal Studios

        ## Countries and Cities
        London|Paris
        New York|Los Angeles
        Japan|Korea
        Italy|Spain
        Tokyo|Seoul
        Germany|Switzerland
        Thailand|Vietnam
        Canada|Mexico
        England|Ireland
        Hong Kong|Singapore
        Rome|Athens
        Sydney|Melbourne
        Brazil|Argentina

        ## Transport
        bus|subway
        train|streetcar
        airplane|helicopter
        bicycle|motorcycle
        car|truck
        ship|yacht
        sailboat|canoe
        hot air balloon|parachute
        elevator|escalator
        skateboard|rollerblades
        ambulance|fire truck
        police car|taxi
        rocket|space shuttle
        ski lift|Ferris wheel
        traffic light|crosswalk
        gas station|parking lot
        highway|tunnel
        seat belt|helmet
        plane ticket|train ticket
        tricycle|stroller
        submarine|ferry
        scooter|segway
        bulldozer|excavator
        garbage truck|street sweeper
        race car|sports car
        limousine|convertible
        steering wheel|tire
        toll booth|rest stop

        ## Sports
        basketball|volleyball
        soccer|rugby
        baseball|softball
        tennis|badminton
        table tennis|billiards
        swimming|diving
        running|walking
        yoga|pilates
        boxing|taekwondo
        judo|karate
        sumo|wrestling
        skiing|snowboarding
        ice skating|roller skating
        surfing|bodyboarding
        golf|bowling
        hiking|rock climbing
        archery|shooting
        marathon|triathlon
        fencing|kendo
        jump rope|hula hoop
        Olympics|World Cup
        cricket|croquet
        hockey|lacrosse
        cycling|spinning class
        dodgeball|handball
        weightlifting|tug of war
        sit-ups|push-ups
        high jump|long jump
        shot put|javelin
        gymnastics|trampoline
        rowing|rafting
        frisbee|boomerang

        ## Music
        piano|guitar
        violin|cello
        flute|recorder
        drums|tambourine
        harmonica|accordion
        trumpet|saxophone
        ukulele|banjo
        harp|lyre
        concert|musical
        choir|band
        rap|rock
        jazz|blues
        opera|ballet
        microphone|loudspeaker
        DJ|conductor
        album|playlist
        national anthem|lullaby
        xylophone|triangle

        ## Games and Hobbies
        poker|mahjong
        chess|checkers
        dominoes|dice
        hide and seek|tag
        singing|dancing
        movie|TV series
        cartoon|comic book
        novel|biography
        magic trick|juggling
        talk show|reality show
        video game|mobile game
        jigsaw puzzle|crossword
        Lego|model kit
        fishing|camping
        knitting|sewing
        painting|drawing
        photography|filming
        gardening|farming
        yo-yo|spinning top
        Monopoly|Scrabble
        kite|balloon
        Werewolf|Who Is the Spy
        swing|slide
        rock paper scissors|coin toss
        claw machine|slot machine
        haunted house|roller coaster
        carousel|bumper cars
        board game|escape room

        ## Nature
        sun|moon
        star|comet
        rain|snow
        typhoon|tornado
        earthquake|tsunami
        rainbow|aurora
        cloud|fog
        river|lake
        waterfall|fountain
        volcano|iceberg
        lightning|thunder
        spring|fall
        summer|winter
        sunrise|sunset
        rose|carnation
        sunflower|daisy
        cherry blossom|plum blossom
        lotus|water lily
        cactus|aloe
        pine tree|oak tree
        bamboo|reed
        stone|brick
        diamond|crystal
        gold|platinum
        pearl|seashell
        mountain|hill
        forest|jungle
        cave|canyon
        hail|frost
        sandstorm|smog
        maple|ginkgo
        tulip|lily
        lavender|rosemary
        orchid|peony
        Milky Way|black hole
        Earth|Mars
        Jupiter|Saturn
        solar eclipse|lunar eclipse

        ## Body and Health
        eye|ear
        eyelash|eyebrow
        mouth|nose
        finger|toe
        hair|beard
        tooth|tongue
        knee|elbow
        shoulder|neck
        heart|liver
        bone|muscle
        cold|flu
        headache|toothache
        cough|sneeze
        hiccup|yawn
        nearsighted|farsighted
        vitamins|probiotics
        band-aid|gauze
        contact lenses|eye drops
        dimple|freckle
        massage|acupuncture
        fever|chills
        wrist|ankle
        allergy|asthma
        cramp|sprain
        pimple|dark circles
        injection|pill

        ## Clothing
        T-shirt|tank top
        jeans|sweatpants
        skirt|dress
        down jacket|windbreaker
        sweater|hoodie
        beanie|baseball cap
        gloves|mittens
        socks|stockings
        slippers|sandals
        high heels|leather shoes
        sneakers|loafers
        necktie|bow tie
        necklace|bracelet
        earring|brooch
        crown|tiara
        pajamas|bathrobe
        swimsuit|wetsuit
        rain boots|snow boots
        tuxedo|evening gown
        lipstick|blush
        perfume|deodorant
        belt|suspenders
        scarf|shawl
        vest|cardigan
        sunglasses|sun hat
        shorts|swim trunks
        apron|oven mitts
        handbag|fanny pack
        eyeshadow|eyeliner

        ## Technology
        smartphone|tablet
        laptop|desktop computer
        keyboard|touchpad
        printer|photocopier
        camera|camcorder
        email|text message
        Wi-Fi|Bluetooth
        flash drive|hard drive
        robot|artificial intelligence
        remote control|game controller
        e-book|paperback
        smartwatch|fitness tracker
        password|fingerprint
        satellite|space station
        laser|infrared
        battery|power outlet
        projector|screen
        selfie stick|tripod
        video call|phone call
        Facebook|Instagram
        YouTube|Netflix
        app|website
        router|modem
        virus|spam
        barcode|QR code
        emoji|sticker
        drone|RC car
        credit card|mobile payment

        ## School
        exam|homework
        midterm|final exam
        summer vacation|winter break
        principal|dean
        class president|team captain
        chalkboard|bulletin board
        textbook|workbook
        school bag|pencil case
        graduation|orientation
        field day|school fair
        math|physics
        history|geography
        chemistry|biology
        music class|art class
        gym class|cooking class
        classmate|roommate
        field trip|school play
        uniform|tracksuit
        certificate|trophy
        chalk|whiteboard marker
        college|high school
        club|student council
        scholarship|student loan
        recess|lunch break
        teacher's pet|class clown
        detention|suspension
        yearbook|school newspaper

        ## People and Characters
        grandpa|grandma
        brother|cousin
        sister|aunt
        uncle|godfather
        boyfriend|husband
        girlfriend|wife
        bride|flower girl
        groom|best man
        neighbor|landlord
        idol|role model
        prince|knight
        queen|princess
        Snow White|Cinderella
        Little Red Riding Hood|Sleeping Beauty
        Peter Pan|Pinocchio
        Superman|Batman
        Spider-Man|Iron Man
        Mickey Mouse|Donald Duck
        Sherlock Holmes|James Bond
        Santa Claus|snowman
        angel|fairy
        witch|wizard
        vampire|zombie
        pirate|ninja
        ghost|alien
        mermaid|unicorn
        Harry Potter|Gandalf

        ## Holidays
        Christmas|Thanksgiving
        Halloween|Easter
        New Year's Eve|Christmas Eve
        birthday|anniversary
        wedding|engagement
        gift|greeting card
        fireworks|firecrackers
        Valentine's Day|Saint Patrick's Day
        Mother's Day|Father's Day
        trick-or-treating|costume party
        barbecue|picnic
        carnival|parade
        bingo|scratch-off ticket
        baby shower|bridal shower
        Christmas tree|wreath
        Independence Day|Labor Day
        surprise party|housewarming party

        ## Taiwan
        night market|temple fair
        cram school|self-study center
        red envelope|spring couplets
        graduation trip|class reunion
        Lunar New Year|Mid-Autumn Festival
        Dragon Boat Festival|Lantern Festival
        stinky tofu|oyster omelet
        beef noodle soup|braised pork rice
        pineapple cake|sun cake
        sky lantern|water lantern
        motor scooter|YouBike
        Mazu|Earth God
        White Day|Qixi Festival
        lychee|longan
        bitter melon|loofah
        High Speed Rail|MRT

        ## Feelings and Life
        proud|grateful
        sad|disappointed
        angry|jealous
        afraid|nervous
        surprised|confused
        regret|guilt
        hungry|thirsty
        lonely|homesick
        dream|wish
        secret|lie
        coincidence|déjà vu
        courage|confidence
        friendship|love
        first love|crush
        memory|diary
        blind date|speed dating
        argument|silent treatment
        apology|forgiveness
        confession|proposal
        breakup|divorce
        insomnia|all-nighter
        diet|fasting
        late|early
        overtime|night shift
        job interview|first day at work
        promotion|pay raise
        retirement|resignation
        commuting|business trip
        moving day|renovation
        saving|investing
        online shopping|window shopping
        cleaning|laundry
        takeout|home cooking

        ## Party !party
        kiss|hug
        bikini|lingerie
        condom|birth control pill
        hangover|blackout
        nightclub|strip club
        striptease|pole dance
        affair|one-night stand
        hookup|friend with benefits
        wedding night|first kiss
        skinny dipping|sleeping naked
        spin the bottle|seven minutes in heaven
        truth|dare
        drinking game|beer pong
        """
}
